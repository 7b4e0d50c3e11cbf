package dev.cohort.bgw;

import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import java.util.Arrays;

/**
 * One round of dealing: each dealer i shares coefficient_i times its m values with fresh degree-t
 * polynomials q_i, and every party k ends with Σ_i q_i(x_k). With one dealer and no coefficients
 * this is input; with the dealers P_0..P_2t and the Lagrange coefficients at 0 it is GRR's degree
 * reduction; with t + 1 dealers of random values it is a random sharing. The dealer applies the
 * coefficient (see {@link BgwSuite#deal}), so receivers only add: at n = 3 a multiplication costs
 * each party five field multiplications instead of seven over 2^61 − 1, and over 2^127 − 1 one
 * 127-bit product (its local d_i) plus multiplications by constants ±u·2^s with u ≤ 3, which take
 * rotations and at most two 64-bit products each (see {@link ShamirSharing#seedScale}).
 *
 * <p>Traffic: each dealer sends m elements to each of the n − 1 − t parties outside T_i; the
 * parties of T_i draw theirs from the pairwise seed.
 */
final class BgwReshare implements RoundProtocol {

  private final BgwSuite suite;
  private final int[] dealers;
  private final long[] coefficients; // packed, one per dealer; null means all ones
  private final long[] secrets; // this party's values when it is a dealer
  private final long[] factors; // when non-null, this party deals secrets[i] * factors[i]
  private final int m;
  private long[] result; // this party's own sum from send, then its share of every value
  private boolean dirty; // result is a recycled column: zeroed block by block as it is summed

  BgwReshare(BgwSuite suite, int[] dealers, long[] coefficients, long[] secrets, int m) {
    this(suite, dealers, coefficients, secrets, null, m);
  }

  /** Dealers deal the products {@code secrets[i] * factors[i]}, computed when they send. */
  BgwReshare(
      BgwSuite suite, int[] dealers, long[] coefficients, long[] secrets, long[] factors, int m) {
    this.suite = suite;
    this.dealers = dealers;
    this.coefficients = coefficients;
    this.secrets = secrets;
    this.factors = factors;
    this.m = m;
  }

  /**
   * Elements per block: dealing and receiving go block by block, so the scratch arrays and the
   * block's operands stay in cache across the passes (products, seeded shares, outgoing shares, own
   * share). JMH BgwMultiplyBenchmark at 10^6 (multiplyOnly minus inputsOnly, n = 3, m61, a loaded
   * 2-core machine): about 4.6 M multiplications/s with whole-batch passes over 8 MB arrays, about
   * 7.9 M/s in blocks of 2048; inputs went from 10.8 M/s to 14.6 M/s.
   */
  static final int BLOCK = 2048;

  /**
   * Deals (if this party is a dealer) and adds the shares drawn from pairwise seeds, into a spare
   * column of the suite when there is one ({@link BgwSuite#spareColumn}; zeroed block by block as
   * it is summed into, in cache, where a fresh column is zeroed whole by the allocation). A party
   * that neither deals nor draws keeps no column: what it receives is its share. Split over threads
   * for large batches ({@link BgwSuite#split}): each chunk deals its range of every message into
   * the place reserved for it in the frame, so the frames are the same bytes as on one thread.
   */
  @Override
  public void send(int round, Outbox out) {
    int[] at = reserve(out);
    if (at == null && !drawsSeeded()) {
      result = null;
      return;
    }
    result = suite.spareColumn(m);
    dirty = result != null;
    if (result == null) {
      result = suite.field().alloc(m);
    }
    BgwSplit split = suite.split(m);
    if (split == null) {
      sendRange(suite.lane(), out, at, 0, m);
      return;
    }
    suite
        .workers()
        .run(
            m,
            BgwSuite.MIN_CHUNK,
            (c, from, to) -> sendRange(split.lane(c, from), out, at, from, to));
    if (!split.finish(split.chunks(), m)) { // a rejected draw (odds about m·2^−61): as one thread
      Arrays.fill(result, 0L);
      sendRange(suite.lane(), out, at, 0, m);
    }
  }

  /** Whether some dealer deals to this party from their pairwise seed. */
  /** A dealer sends each party outside its seeded set its shares; the others send nothing. */
  @Override
  public boolean sendsTo(int round, int peer) {
    return deals(suite.myId()) && !suite.sharing.isSeeded(suite.myId(), peer);
  }

  /** Shares come from each dealer outside whose seeded set this party is. */
  @Override
  public boolean receivesFrom(int round, int peer) {
    return deals(peer) && !suite.sharing.isSeeded(peer, suite.myId());
  }

  private boolean deals(int party) {
    for (int dealer : dealers) {
      if (dealer == party) {
        return true;
      }
    }
    return false;
  }

  private boolean drawsSeeded() {
    int self = suite.myId();
    for (int dealer : dealers) {
      if (dealer != self && suite.sharing.isSeeded(dealer, self)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reserves this party's message to each party it deals to, when it is a dealer: the word offset
   * by party, or null.
   */
  private int[] reserve(Outbox out) {
    int self = suite.myId();
    boolean dealer = false;
    for (int d : dealers) {
      dealer |= d == self;
    }
    if (!dealer) {
      return null;
    }
    int[] at = new int[suite.parties()];
    for (int k = 0; k < at.length; k++) {
      if (k != self && suite.sharing.dealCoefficients[k] != null) {
        at[k] = out.reserve(k, m * suite.field().words());
      }
    }
    return at;
  }

  /**
   * Elements [from, to), block by block, drawing and keeping scratch in {@code lane}. In each block
   * the first share drawn from a pairwise seed is drawn straight into the result, which saves
   * zeroing the block and a pass that adds it; the other seeded shares are added, and this party's
   * own dealing comes last. The generators are separate and sums mod p exact, so the order changes
   * no share.
   */
  private void sendRange(BgwLane lane, Outbox out, int[] at, int from, int to) {
    int self = suite.myId();
    int words = suite.field().words();
    for (int start = from; start < to; start += BLOCK) {
      int n = Math.min(BLOCK, to - start);
      boolean written = false;
      for (int dealer : dealers) {
        if (dealer != self && suite.sharing.isSeeded(dealer, self)) {
          suite.addSeededShare(lane, dealer, result, start, n, written);
          written = true;
        }
      }
      if (!written && dirty) {
        Arrays.fill(result, start * words, (start + n) * words, 0L);
      }
      for (int d = 0; d < dealers.length; d++) {
        if (dealers[d] != self) {
          continue;
        }
        if (factors != null && suite.dealsProductsInOnePass()) {
          suite.dealProducts(lane, secrets, factors, start, n, out, at, coefficients, d, result);
        } else {
          long[] mine = mySecrets(lane, start, n);
          suite.deal(lane, mine, n, out, at, start, coefficients, d, result, start);
        }
      }
    }
  }

  /**
   * Elements {@code [from, from + n)} of the values this party deals, in a scratch slot that
   * dealing does not use (a copy, or the products).
   */
  private long[] mySecrets(BgwLane lane, int from, int n) {
    long[] block = lane.scratch(suite.threshold + 1, n);
    if (factors == null) {
      int words = suite.field().words();
      System.arraycopy(secrets, from * words, block, 0, n * words);
    } else {
      suite.field().mul(secrets, from, factors, from, block, 0, n);
    }
    return block;
  }

  /**
   * Adds the shares of the dealers that send to this party. The first message that is a whole frame
   * becomes the result, the column of {@link #send} and the other messages added into it, and the
   * column goes back to the suite ({@link BgwSuite#recycle}); otherwise the messages are added into
   * the column. Each message is taken whole (in place in its frame where it can be), then summed
   * block by block, split over threads for large batches: sums mod p are exact, so any order and
   * any split give the same result.
   */
  @Override
  public boolean receive(int round, Inbox in) {
    int self = suite.myId();
    int words = suite.field().words();
    long[][] addends = new long[dealers.length + 1][];
    int[] offsets = new int[dealers.length + 1];
    long[] sum = null; // a frame kept as the result
    for (int d = 0; d < dealers.length; d++) {
      int dealer = dealers[d];
      if (dealer != self && !suite.sharing.isSeeded(dealer, self)) {
        if (sum == null && (sum = in.takeWholeFrame(dealer, m * words)) != null) {
          continue;
        }
        long[] spare = in.aligned(dealer, words) ? null : suite.field().alloc(m);
        offsets[d] = in.takeElements(dealer, m, words, spare); // no copy where aligned
        addends[d] = in.elements();
      }
    }
    long[] column = result;
    if (sum != null) {
      addends[dealers.length] = column; // null when this party kept none
    } else {
      sum = column != null ? column : suite.field().alloc(m);
    }
    long[] target = sum;
    suite
        .workers()
        .run(m, BgwSuite.MIN_CHUNK, (c, from, to) -> addRange(target, addends, offsets, from, to));
    if (column != null && column != sum) {
      suite.recycle(column);
    }
    result = sum;
    return true;
  }

  /** Adds elements [from, to) of each non-null addend to {@code sum}, block by block. */
  private void addRange(long[] sum, long[][] addends, int[] offsets, int from, int to) {
    for (int start = from; start < to; start += BLOCK) {
      int n = Math.min(BLOCK, to - start);
      for (int d = 0; d < addends.length; d++) {
        if (addends[d] != null) {
          suite.field().add(sum, start, addends[d], offsets[d] + start, sum, start, n);
        }
      }
    }
  }

  @Override
  public Shares shares() {
    return new Shares(m, result, null);
  }
}
