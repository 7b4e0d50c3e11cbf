package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Random bits at t = 1 with PRSS keys [CDI05]: b = x ⊕ w, where x is a PRSS bit known to every
 * party but one outsider P_c, and w is a bit of P_c that it deals. Since the members of A (every
 * party but P_c) know x, they compute their shares of b = x + (1 − 2x)·w locally, without a
 * product; only the outsider's share, which depends on x, needs two masked messages. Two rounds for
 * any batch; P_0, P_1 and P_2 are each the outsider of a third of the batch, so the three roles
 * share the work.
 *
 * <p>For element i with outsider c, P_a = P_(c+1 mod n) (the party whose share of P_c's dealing
 * comes from their pairwise seed) and P_b = P_(c+2 mod n):
 *
 * <ol>
 *   <li>From K_A, the key of A: the bit x (stream 1, drawn when the gate is built) and, in round 2,
 *       two field elements z and ρ.
 *   <li>Round 1: P_c deals its bit w with a fresh degree-1 polynomial W (W(0) = w; P_a's share u =
 *       W(x_a) comes from their seed, the others' are sent). P_c keeps no share of W.
 *   <li>Round 2: the sharing of b is B(X) = x·f_A(X) + (1 − 2x)·W(X) + z·X: degree 1, B(0) = b, and
 *       z makes it a uniformly random such polynomial. f_A (PRSS's, f_A(0) = 1, f_A(x_c) = 0) and x
 *       are known to A, so every member P_j computes B(x_j) = x·f_A(x_j) ± W(x_j) + z·x_j itself.
 *       The outsider needs B(x_c) = ±W(x_c) + z·x_c with W(x_c) = λ_a·W(x_a) + λ_b·W(x_b) (Lagrange
 *       at x_c from x_a and x_b): P_a sends it ±λ_a·W(x_a) + ρ, P_b sends ±λ_b·W(x_b) + z·x_c − ρ,
 *       and P_c adds them.
 * </ol>
 *
 * <p>Security (semi-honest, one corrupt party): a member knows x, z and ρ, and one share of W,
 * which is uniform on its own (P_a's from the seed, the others' through it), so its view is
 * independent of w. The outsider knows W but receives only P_a's message, uniform through ρ, and
 * P_b's, uniform given the first through z·x_c (x_c ≠ 0), so its view is independent of x. b, the
 * XOR of the bit a party does not know with anything, is uniform and hidden, and B is a uniformly
 * random degree-1 polynomial through b, as a sharing must be.
 *
 * <p>Cost per bit, n parties: elements sent (n − 2) + 2, at n = 3 one per party (as the GRR form
 * this replaced, which dealt x·w again); field products: the outsider's n − 2 dealt shares, one
 * each; a member's ±W(x_j) + z·x_j and the messages are negations, selects and additions, plus a
 * product by the small constant x_j (a rotation where x_j and λ are ± powers of two: at n = 3 all
 * the λ are ±1, ±2 or ½). At n = 3 about 1.3 products per bit over all parties, where the GRR form
 * took 12. Pseudo-random draws: one seeded element at P_c and P_a, and per member one bit and two
 * elements from K_A.
 *
 * <p>Elements are worked on in three groups, one per outsider (P_0's first, a third of the batch
 * each), in blocks of {@link BgwReshare#BLOCK}, straight in the result array. Both sides of a seed
 * draw block by block in the same order, group by group.
 */
final class BgwPrssBits implements RoundProtocol {

  private static final int ROLES = 3; // the outsiders P_0, P_1, P_2

  private final BgwSuite suite;
  private final Field field;
  private final int self;
  private final int words;
  private final int m;
  private final int[] count = new int[ROLES]; // elements per group
  private final int[] first = new int[ROLES]; // the group's first element
  private final long[][] x = new long[ROLES][]; // PRSS bits, one bit per element; null if outsider
  private final Weights weights;
  private long[] result; // shares of W, then of b, group by group

  BgwPrssBits(BgwSuite suite, int m) {
    this.suite = suite;
    this.field = suite.field();
    this.self = suite.myId();
    this.words = field.words();
    this.m = m;
    this.weights = suite.prssBitWeights();
    for (int c = 0; c < ROLES; c++) {
      count[c] = (m - c + ROLES - 1) / ROLES;
      first[c] = c == 0 ? 0 : first[c - 1] + count[c - 1];
      if (c != self) {
        // Drawn when the gate is built, like PRSS elements: every member of A draws alike.
        x[c] = new long[(count[c] + 63) >>> 6];
        suite.prss().bitsWithout(c).fill(x[c], 0, x[c].length);
      }
    }
  }

  @Override
  public boolean isDone() {
    return m == 0;
  }

  @Override
  public void send(int round, Outbox out) {
    if (round == 0) {
      sendBits(out);
    } else {
      sendOutsiderShares(out);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (round == 0) {
      for (int c = 0; c < ROLES; c++) {
        if (c != self && !suite.sharing.isSeeded(c, self)) {
          in.read(c, result, first[c] * words, count[c] * words);
        }
      }
      return false;
    }
    if (self < ROLES) {
      int c = self;
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        int at = in.takeElements(weights.a[c], n, words, suite.scratch(0, n)); // in place if it can
        System.arraycopy(in.elements(), at * words, result, (first[c] + from) * words, n * words);
        at = in.takeElements(weights.b[c], n, words, suite.scratch(0, n));
        field.add(result, first[c] + from, in.elements(), at, result, first[c] + from, n);
      }
    }
    return true;
  }

  /** Round 1: the outsider deals its bits w; the party seeded by it draws its share. */
  private void sendBits(Outbox out) {
    result = field.alloc(m);
    for (int c = 0; c < ROLES; c++) {
      boolean seeded = c != self && suite.sharing.isSeeded(c, self);
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        if (c == self) {
          long[] bits = suite.scratch(suite.threshold + 1, n);
          suite.privateBits(bits, n);
          suite.deal(bits, n, out, null, 0, null, 0); // keeps no share of its own
        } else if (seeded) {
          suite.seededShare(c, result, first[c] + from, n);
        }
      }
    }
  }

  /**
   * Round 2: every member turns its share of W into its share of b; P_a and P_b send the outsider
   * its masked halves.
   */
  private void sendOutsiderShares(Outbox out) {
    for (int c = 0; c < ROLES; c++) {
      if (c == self) {
        continue;
      }
      Prg keyA = suite.prss().bitsWithout(c);
      boolean isA = weights.a[c] == self;
      boolean isB = weights.b[c] == self;
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        long[] z = suite.scratch(suite.threshold + 2, n);
        long[] rho = suite.scratch(suite.threshold + 3, n);
        long[] tmp = suite.scratch(0, n);
        field.random(keyA, z, 0, n); // every member draws both, to stay in step
        field.random(keyA, rho, 0, n);
        int at = first[c] + from; // W(x_self), then B(x_self)
        if (isA || isB) {
          // ±λ·W(x_self): the sign of λ folded into the negation, |λ| a rotation at n = 3
          field.negateWhere(x[c], from, weights.flip[c], result, at, tmp, 0, n);
          field.scale(tmp, 0, weights.lambda, c, tmp, 0, n);
          if (isA) {
            field.add(tmp, 0, rho, 0, tmp, 0, n);
          } else {
            field.sub(tmp, 0, rho, 0, tmp, 0, n);
            field.scale(z, 0, weights.outsiderPoint, c, rho, 0, n);
            field.add(tmp, 0, rho, 0, tmp, 0, n);
          }
          out.write(c, tmp, 0, n * words);
        }
        // B(x_self) = x·f_A(x_self) + (1 − 2x)·W(x_self) + z·x_self
        field.negateWhere(x[c], from, false, result, at, result, at, n);
        field.scale(z, 0, weights.selfPoint, 0, z, 0, n);
        field.add(result, at, z, 0, result, at, n);
        selectConstant(x[c], from, weights.select, c, tmp, n, words);
        field.add(result, at, tmp, 0, result, at, n);
      }
    }
  }

  /** {@code out[i] = bit(from + i) ? c[co] : 0} for {@code i < n}, without a branch. */
  static void selectConstant(
      long[] bits, int from, long[] c, int co, long[] out, int n, int words) {
    for (int i = 0; i < n; i++) {
      int at = from + i;
      long keep = -((bits[at >>> 6] >>> (at & 63)) & 1);
      int o = i * words;
      for (int k = 0; k < words; k++) {
        out[o + k] = c[co * words + k] & keep;
      }
    }
  }

  @Override
  public Shares shares() {
    return new Shares(m, result, null);
  }

  /**
   * The constants of one party, computed once per suite, packed, indexed by the outsider c where
   * there is one per group: {@code select[c]} = f_A(x_self), this party's share of x = 1; {@code
   * selfPoint} = x_self; {@code a[c]}, {@code b[c]}: the parties that send P_c its share; {@code
   * lambda[c]}: |λ_self| when this party is one of them, with {@code flip[c]} when λ_self is the
   * negation of a power of two (so that the scaling stays a rotation); {@code outsiderPoint[c]} =
   * x_c.
   */
  record Weights(
      long[] select,
      long[] selfPoint,
      int[] a,
      int[] b,
      long[] lambda,
      boolean[] flip,
      long[] outsiderPoint) {

    static Weights of(BgwSuite suite) {
      Field field = suite.field();
      int self = suite.myId();
      int parties = suite.parties();
      long[] select = field.alloc(ROLES);
      long[] selfPoint = field.alloc(1);
      int[] a = new int[ROLES];
      int[] b = new int[ROLES];
      long[] lambda = field.alloc(ROLES);
      boolean[] flip = new boolean[ROLES];
      long[] outsiderPoint = field.alloc(ROLES);
      long[] t = field.alloc(2);
      field.encode(self + 1L, selfPoint, 0);
      for (int c = 0; c < ROLES; c++) {
        a[c] = (c + 1) % parties; // seeded by P_c at t = 1 (ShamirSharing#seeded)
        b[c] = (c + 2) % parties;
        field.encode(c + 1L, outsiderPoint, c);
        if (c == self) {
          continue;
        }
        // f_A(X) = (x_c − X) / x_c: degree 1, f_A(0) = 1, f_A(x_c) = 0 (Prss's coefficient)
        field.encode(c + 1L, t, 0);
        field.inverse(t, 0, t, 0);
        field.encode((c + 1L) - (self + 1L), select, c);
        field.mul(select, c, t, 0, select, c, 1);
        if (self == a[c] || self == b[c]) {
          // λ_self = (x_c − x_other) / (x_self − x_other)
          long other = (self == a[c] ? b[c] : a[c]) + 1L;
          field.encode((c + 1L) - other, lambda, c);
          field.encode((self + 1L) - other, t, 0);
          field.inverse(t, 0, t, 0);
          field.mul(lambda, c, t, 0, lambda, c, 1);
          field.negate(lambda, c, t, 1, 1);
          if (!isPowerOfTwo(field, lambda, c) && isPowerOfTwo(field, t, 1)) {
            int w = field.words();
            System.arraycopy(t, w, lambda, c * w, w); // −λ, a power of two
            flip[c] = true;
          }
        }
      }
      return new Weights(select, selfPoint, a, b, lambda, flip, outsiderPoint);
    }

    private static boolean isPowerOfTwo(Field field, long[] v, int at) {
      int bits = 0;
      for (int k = 0; k < field.words(); k++) {
        bits += Long.bitCount(v[at * field.words() + k]);
      }
      return bits == 1;
    }
  }
}
