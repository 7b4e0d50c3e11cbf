package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Random bits at t = 1 with PRSS keys [CDI05]: b = x ⊕ w, where x is a PRSS bit known to every
 * party but one outsider P_c, and w is a bit of P_c that it deals. Two rounds for any batch; the
 * outsider of element i is P_(i mod 3), so the three roles share the work evenly.
 *
 * <p>For element i with outsider c and A = every party but P_c:
 *
 * <ol>
 *   <li>x is a bit of K_A's bit stream. Its sharing needs no message: q_x = x·f_A, where f_A is
 *       PRSS's degree-1 polynomial with f_A(0) = 1 and f_A(x_c) = 0, so P_c's share is 0 and a
 *       member's is f_A(x_self) or 0 (a select, not a product).
 *   <li>Round 1: P_c deals its bit w with a fresh degree-1 polynomial q_w (pairwise seeds, as in
 *       {@link BgwSuite#deal}).
 *   <li>Round 2: h_j = q_x(x_j)·q_w(x_j) are shares of a degree-2 polynomial with h(0) = xw and h_c
 *       = 0, so GRR degree reduction over S = {P_0, P_1, P_2} needs only the two dealers of S other
 *       than P_c: each deals −2·λ^S_j(0)·h_j = (−2·λ^S_j(0)·f_A(x_j))·(x ? w_j : 0), the constant
 *       going into the dealing weight (free: it scales the secret's coefficient). Parties outside S
 *       only receive.
 *   <li>b_k = q_x(x_k) + q_w(x_k) + [−2xw]_k, locally.
 * </ol>
 *
 * <p>Security (semi-honest, one corrupt party): a party knows x or w, never both (P_c knows w and
 * not x; everyone else knows x and not w), and every share it receives is one point of a fresh
 * random degree-1 polynomial, uniform on its own. So the view of any one party is independent of
 * the bit it does not know, and b, the XOR of that bit with anything, is uniform and hidden.
 *
 * <p>Cost per bit, n parties, compared with {@link BgwDealtBits} at t = 1 (two dealt bits and one
 * GRR multiplication), both two rounds:
 *
 * <ul>
 *   <li>elements sent: (1 + 2)·(n − 2) instead of (2 + 3)·(n − 2); at n = 3, three instead of five
 *       (one per party instead of two, two and one);
 *   <li>dealing: 3 dealt elements per bit (one per party of S: a third of a dealing as outsider,
 *       two thirds of two as GRR dealer) and no local product, instead of 5 (two at P_0 and P_1,
 *       one at P_2) and 3 products a·b. A dealt element costs n − 1 shares, each a two-term
 *       combination (see {@link BgwSuite#deal}; at n = 3 over 2^127 − 1, 2 products per dealt
 *       element, 3 with a weight that is not a power of two). Parties outside S only add;
 *   <li>pseudo-random draws: 6 field elements from pairwise seeds (over all parties) and one PRSS
 *       bit, instead of 10 elements and two private bits.
 * </ul>
 *
 * <p>x comes from a second stream of each PRSS key (stream 1; {@link Prss#next} uses stream 0), so
 * random bits and random elements never share pseudo-random words.
 *
 * <p>Elements are worked on in three groups, one per outsider (element i is number i / 3 of group i
 * mod 3), in blocks of {@link BgwReshare#BLOCK}; the result is interleaved back at the end. Both
 * sides of a pairwise seed draw block by block in the same order, group by group.
 */
final class BgwPrssBits implements RoundProtocol {

  private static final int ROLES = 3; // S = {P_0, P_1, P_2}, the outsiders and GRR dealers

  private final BgwSuite suite;
  private final Field field;
  private final int self;
  private final int words;
  private final int m;
  private final int[] count = new int[ROLES]; // elements per group
  private final long[][] x = new long[ROLES][]; // PRSS bits, one bit per element; null if outsider
  private final long[][] share = new long[ROLES][]; // of w, then of w − 2xw
  private final Weights weights;
  private long[] result;

  BgwPrssBits(BgwSuite suite, int m) {
    this.suite = suite;
    this.field = suite.field();
    this.self = suite.party();
    this.words = field.words();
    this.m = m;
    this.weights = suite.prssBitWeights();
    for (int c = 0; c < ROLES; c++) {
      count[c] = (m - c + ROLES - 1) / ROLES;
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
      sendProducts(out);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (round == 0) {
      for (int c = 0; c < ROLES; c++) {
        if (c != self && !suite.sharing.isSeeded(c, self)) {
          in.read(c, share[c], 0, count[c] * words);
        }
      }
      return false;
    }
    for (int c = 0; c < ROLES; c++) {
      for (int j = 0; j < ROLES; j++) {
        if (j != c && j != self && !suite.sharing.isSeeded(j, self)) {
          for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
            int n = Math.min(BgwReshare.BLOCK, count[c] - from);
            int at = in.takeElements(j, n, words, suite.scratch(0, n)); // in place if it can
            field.add(share[c], from, in.elements(), at, share[c], from, n);
          }
        }
      }
    }
    finish();
    return true;
  }

  /** Round 1: the outsider deals its bits w; the parties seeded by it draw their shares. */
  private void sendBits(Outbox out) {
    for (int c = 0; c < ROLES; c++) {
      share[c] = field.alloc(count[c]);
      boolean seeded = c != self && suite.sharing.isSeeded(c, self);
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        if (c == self) {
          long[] bits = suite.scratch(suite.threshold + 1, n);
          suite.privateBits(bits, n);
          suite.deal(bits, n, out, null, 0, share[c], from);
        } else if (seeded) {
          suite.seededShare(c, share[c], from, n);
        }
      }
    }
  }

  /**
   * Round 2: each party of S deals (x ? w_self : 0), weighted by −2·λ^S_self(0)·f_A(x_self), for
   * the two groups it is not the outsider of; the parties seeded by a dealer draw their shares.
   * Every share of −2·xw is added to the share of w at once, block by block, after the block's
   * secrets are taken.
   */
  private void sendProducts(Outbox out) {
    for (int c = 0; c < ROLES; c++) {
      boolean deals = self < ROLES && self != c;
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        long[] selected = null;
        if (deals) {
          selected = suite.scratch(suite.threshold + 1, n);
          select(x[c], from, share[c], selected, n, words);
        }
        for (int j = 0; j < ROLES; j++) {
          if (j == c) {
            continue;
          }
          if (j == self) {
            suite.deal(selected, n, out, weights.deal, c, share[c], from);
          } else if (suite.sharing.isSeeded(j, self)) {
            long[] drawn = suite.scratch(0, n);
            suite.seededShare(j, drawn, 0, n);
            field.add(share[c], from, drawn, 0, share[c], from, n);
          }
        }
      }
    }
  }

  /** b = q_x + (q_w − 2·[xw]), group by group, interleaved into the result. */
  private void finish() {
    result = field.alloc(m);
    for (int c = 0; c < ROLES; c++) {
      for (int from = 0; from < count[c]; from += BgwReshare.BLOCK) {
        int n = Math.min(BgwReshare.BLOCK, count[c] - from);
        long[] b = suite.scratch(0, n);
        if (c != self) {
          selectConstant(x[c], from, weights.select, c, b, n, words);
          field.add(b, 0, share[c], from, b, 0, n);
        } else {
          System.arraycopy(share[c], from * words, b, 0, n * words);
        }
        for (int i = 0; i < n; i++) {
          int to = ((from + i) * ROLES + c) * words;
          for (int k = 0; k < words; k++) {
            result[to + k] = b[i * words + k];
          }
        }
      }
      share[c] = null;
    }
  }

  /** {@code out[i] = bit(from + i) ? a[from + i] : 0} for {@code i < n}, without a branch. */
  static void select(long[] bits, int from, long[] a, long[] out, int n, int words) {
    for (int i = 0; i < n; i++) {
      int at = from + i;
      long keep = -((bits[at >>> 6] >>> (at & 63)) & 1);
      int o = i * words;
      int ao = at * words;
      for (int k = 0; k < words; k++) {
        out[o + k] = a[ao + k] & keep;
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
   * The constants of one party, computed once per suite, packed, indexed by the outsider c: {@code
   * select[c]} = f_A(x_self), this party's share of x = 1; {@code deal[c]} = λ^S_self(0) ·
   * f_A(x_self), its weight as a GRR dealer (zero where it is the outsider or outside S).
   */
  record Weights(long[] select, long[] deal) {

    static Weights of(BgwSuite suite) {
      Field field = suite.field();
      int self = suite.party();
      long[] select = field.alloc(ROLES);
      long[] deal = field.alloc(ROLES);
      long[] xc = field.alloc(1);
      long[] minusTwo = field.alloc(1);
      field.encode(-2, minusTwo, 0);
      for (int c = 0; c < ROLES; c++) {
        if (c == self) {
          continue;
        }
        // f_A(X) = (x_c − X) / x_c: degree 1, f_A(0) = 1, f_A(x_c) = 0 (Prss's coefficient)
        field.encode(c + 1L, xc, 0);
        field.inverse(xc, 0, xc, 0);
        field.encode((c + 1L) - (self + 1L), select, c);
        field.mul(select, c, xc, 0, select, c, 1);
        if (self < ROLES) {
          field.mul(select, c, suite.sharing.recombine, self, deal, c, 1);
          field.mul(deal, c, minusTwo, 0, deal, c, 1);
        }
      }
      return new Weights(select, deal);
    }
  }
}
