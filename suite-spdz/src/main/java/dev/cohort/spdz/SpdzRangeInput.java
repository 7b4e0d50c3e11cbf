package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import java.math.BigInteger;

/**
 * Input of m values that their owner declared to be k-bit signed integers, proven in that range to
 * every party before their shares exist: the shares this protocol returns are of values in
 * [−2^(k−1), 2^(k−1)), or every honest party aborts naming the owner. The statistical masks of the
 * library ([CdH10]: comparison, equality, truncation, bit decomposition, division) hide a value
 * only if it really has the bits they assume; the owner's own range check proves nothing to the
 * others.
 *
 * <pre>
 *  round 0     owner: ε = b − r for the k·m bits b (an {@link SpdzInput}, bit-major: bit j of value
 *              i at j·m + i);  everyone: commit to a coin share ({@link JointCoin})
 *  round 1     ⟨b⟩² by Beaver ({@code suite.multiply}: open d, e);  everyone: open the coin share
 *              ρ = PRG(coin), uniform field elements;  ⟨w⟩ = Σ_j ρ_j·(⟨b_j⟩² − ⟨b_j⟩)  (local)
 *  rounds 2–4  MAC check 1 over every unchecked opening, d and e included
 *  round 5     open w ({@code suite.open})
 *  rounds 6–8  MAC check 2, covering w's opening
 *              w = 0: ⟨a_i⟩ = Σ_j 2^j·⟨b_{j·m+i}⟩ − 2^(k−1)  (local);  w ≠ 0: abort naming the owner
 * </pre>
 *
 * <p>A check is skipped when one that started after the values it must cover has passed, and waits
 * while another is in flight (checks run one at a time): input batches of several owners in the
 * same rounds share their checks.
 *
 * <p>Soundness: ρ is fixed after every ε (the coin's seeds are committed in the round the ε are
 * sent), so if some b_j ∉ {0, 1} then w = 0 with probability 1/p. Check 1 is what makes opening w
 * safe: a party that added δ to its share of d would make w carry δ·b_j, a bit of an honest owner,
 * and could also cancel b_j² − b_j of its own non-bit. Check 2 is what makes the verdict right
 * either way: only then is the opened w known to be the true one, so an honest owner cannot be
 * framed by a tampered share of w (that fails the check instead), and a corrupt party cannot force
 * a zero w for a bad input. Both outcomes run the same rounds, so no tampered share of w splits the
 * honest parties into some that go on and some that do not.
 *
 * <p>Cost per value: k input masks, k triples and 2k opened elements; per batch, whatever m and k,
 * one opened element, one coin and two MAC checks: 9 rounds where an unproven input takes 1. Every
 * k accepted by the builder (up to the field's bits − 1) is proven, also those too wide for any
 * statistical mask: the range is what the caller declared, and the proof does not depend on masks.
 * Declare the smallest k that fits.
 */
final class SpdzRangeInput implements RoundProtocol {

  private enum Phase {
    BROADCAST,
    SQUARE,
    CHECK,
    OPEN,
    CONFIRM
  }

  private final SpdzSuite suite;
  private final Field field;
  private final int owner;
  private final int m;
  private final int k;
  private final SpdzInput bits;
  private final JointCoin coin;
  private Phase phase = Phase.BROADCAST;
  private RoundProtocol current; // the suite protocol of this phase (square, check or open)
  private int currentRound;
  private Shares b;
  private Shares w;
  private long checksBefore; // MAC checks started before what the next check must cover
  private boolean wIsZero;
  private boolean confirmed; // CONFIRM: a check that covers w's opening has passed
  private Shares result;

  /** The input of {@code values} (packed, at the owner; null elsewhere), proven k-bit. */
  static SpdzRangeInput of(SpdzSuite suite, int owner, long[] values, int m, int k) {
    Field field = suite.field();
    long[] column = suite.party() == owner ? bitColumn(field, owner, values, m, k) : null;
    return new SpdzRangeInput(suite, owner, column, m, k);
  }

  /**
   * The input of the k·m bits in {@code column} ({@link #bitColumn}'s layout, at the owner; null
   * elsewhere). Package-private so that tests can play an owner that inputs non-bits.
   */
  SpdzRangeInput(SpdzSuite suite, int owner, long[] column, int m, int k) {
    this.suite = suite;
    this.field = suite.field();
    this.owner = owner;
    this.m = m;
    this.k = k;
    this.bits = new SpdzInput(suite, owner, column, k * m);
    this.coin = new JointCoin(suite);
  }

  /**
   * The owner's bits of a_i + 2^(k−1) ∈ [0, 2^k), bit-major, one packed element (0 or 1) each.
   * Throws for a value outside the range: the builder has checked it already, so this is a caller
   * error, and it is named by position only, never by value.
   */
  static long[] bitColumn(Field field, int owner, long[] values, int m, int k) {
    int words = field.words();
    long[] offset = field.alloc(m);
    long[] half = field.alloc(1);
    field.encode(BigInteger.ONE.shiftLeft(k - 1), half, 0);
    for (int i = 0; i < m; i++) {
      System.arraycopy(half, 0, offset, i * words, words);
    }
    long[] u = field.alloc(m);
    field.add(values, 0, offset, 0, u, 0, m);
    long[] column = field.alloc(k * m);
    for (int i = 0; i < m; i++) {
      for (int w = 0; w < words; w++) {
        int below = k - 64 * w; // bits of word w that may be set
        long allowed = below >= 64 ? -1L : below <= 0 ? 0L : (1L << below) - 1;
        if ((u[i * words + w] & ~allowed) != 0) {
          throw new IllegalArgumentException(
              PartyId.of(owner)
                  + "'s input at position "
                  + i
                  + " is outside the declared "
                  + k
                  + "-bit signed range [-2^"
                  + (k - 1)
                  + ", 2^"
                  + (k - 1)
                  + ")");
        }
      }
      for (int j = 0; j < k; j++) {
        column[(j * m + i) * words] = (u[i * words + (j >>> 6)] >>> (j & 63)) & 1;
      }
    }
    return column;
  }

  @Override
  public void send(int round, Outbox out) {
    switch (phase) {
      case BROADCAST -> {
        bits.send(0, out);
        coin.send(0, out);
      }
      case SQUARE -> {
        current.send(currentRound, out);
        if (currentRound == 0) {
          coin.send(1, out);
        }
      }
      case CHECK, CONFIRM -> sendCheck(out);
      case OPEN -> current.send(currentRound, out);
    }
  }

  /**
   * Starts or continues the MAC check this phase needs, or moves on when a check that started after
   * the values it must cover has passed. Decided in {@code send} from state every party shares, so
   * all decide alike in the same round; a round spent waiting sends nothing.
   */
  private void sendCheck(Outbox out) {
    if (current == null && !confirmed) {
      if (suite.checkInFlight()) {
        return; // wait: checks run one at a time
      }
      if (!covered()) {
        current = suite.check(true); // everything unchecked, ours included
        currentRound = 0;
      } else if (phase == Phase.CONFIRM) {
        confirmed = true; // a check since w was opened has passed: finish in receive
        return;
      } else {
        startOpen();
      }
    }
    if (current != null) {
      current.send(currentRound, out);
    }
  }

  /**
   * True when every opening up to this phase has passed a MAC check: none is unchecked, or a check
   * started since (and, none being in flight, has passed).
   */
  private boolean covered() {
    return !suite.checkInFlight()
        && (suite.uncheckedCount() == 0 || suite.checksStarted() > checksBefore);
  }

  private void startOpen() {
    phase = Phase.OPEN;
    current = suite.open(w, -1);
    currentRound = 0;
  }

  @Override
  public boolean receive(int round, Inbox in) {
    switch (phase) {
      case BROADCAST -> {
        bits.receive(0, in);
        coin.receive(0, in);
        b = bits.shares();
        phase = Phase.SQUARE;
        current = suite.multiply(b, b);
        currentRound = 0;
        return false;
      }
      case SQUARE -> {
        boolean squared = current.receive(currentRound, in); // read in the order sent
        if (currentRound++ == 0) {
          coin.receive(1, in);
        }
        if (squared) {
          w = combination(current.shares());
          checksBefore = suite.checksStarted();
          phase = Phase.CHECK;
          current = null;
        }
        return false;
      }
      case CHECK, CONFIRM -> {
        if (current == null) { // waited this round for another check, or skipped one
          // A check run by an earlier protocol of this round may have covered w's opening just now.
          return phase == Phase.CONFIRM && (confirmed || covered()) && finish();
        }
        if (!current.receive(currentRound++, in)) {
          return false;
        }
        current = null;
        if (phase == Phase.CONFIRM) {
          return finish();
        }
        startOpen(); // sent next round
        return false;
      }
      default -> {
        if (!current.receive(currentRound++, in)) {
          return false;
        }
        wIsZero = isZero(current.opened());
        checksBefore = suite.checksStarted();
        phase = Phase.CONFIRM;
        current = null;
        return false;
      }
    }
  }

  /** ⟨w⟩ = Σ_j ρ_j·(⟨b_j⟩² − ⟨b_j⟩) over all k·m bits, shares and MAC shares alike. */
  private Shares combination(Shares squares) {
    int n = k * m;
    long[] rho = field.alloc(n);
    field.random(Prg.fromKey(coin.key(), 0), rho, 0, n);
    long[] t = field.alloc(n);
    long[] share = field.alloc(1);
    long[] mac = field.alloc(1);
    field.sub(squares.share, 0, b.share, 0, t, 0, n);
    field.innerProduct(rho, 0, t, 0, n, share, 0);
    field.sub(squares.mac, 0, b.mac, 0, t, 0, n);
    field.innerProduct(rho, 0, t, 0, n, mac, 0);
    return new Shares(1, share, mac);
  }

  /**
   * After a MAC check covering w's opening has passed: the shares, or the abort naming the owner.
   */
  private boolean finish() {
    if (!wIsZero) {
      throw blame();
    }
    result = compose();
    return true;
  }

  private boolean isZero(long[] value) {
    return field.equal(value, 0, field.alloc(1), 0);
  }

  /** ⟨a_i⟩ = Σ_j 2^j·⟨b_{j·m+i}⟩ − 2^(k−1). */
  private Shares compose() {
    long[] powers = field.alloc(k);
    for (int j = 0; j < k; j++) {
      field.encode(BigInteger.ONE.shiftLeft(j), powers, j);
    }
    long[] shift = field.alloc(1);
    field.encode(BigInteger.ONE.shiftLeft(k - 1).negate(), shift, 0);
    return suite.addConstant(suite.sumRows(b, m, powers), shift, 0);
  }

  private AbortException blame() {
    return new AbortException(
        PartyId.of(owner)
            + "'s input ("
            + m
            + (m == 1 ? " value" : " values")
            + " declared "
            + k
            + "-bit) is not a "
            + k
            + "-bit value: its bits failed the range check after a passed MAC check; "
            + PartyId.of(owner)
            + " is misbehaving");
  }

  @Override
  public Shares shares() {
    return result;
  }
}
