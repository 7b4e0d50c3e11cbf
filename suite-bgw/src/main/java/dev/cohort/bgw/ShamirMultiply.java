package dev.cohort.bgw;

import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Multiplication with degree reduction in one round [GRR98]. The local products d_i = a_i · b_i are
 * shares of a degree-2t polynomial with constant term ab. Each P_i of S = {P_0..P_2t} reshares d_i
 * with a fresh degree-t polynomial; every party recombines the shares it gets with the Lagrange
 * vector of S at 0. Parties outside S only receive.
 *
 * <p>With pairwise seeds each dealer sends n − 1 − t elements per product: at n = 3 one element (8
 * bytes over 2^61 − 1) per party per multiplication.
 */
final class ShamirMultiply {

  private ShamirMultiply() {}

  static RoundProtocol start(BgwSuite suite, Shares a, Shares b) {
    int t = suite.threshold;
    int[] dealers = new int[2 * t + 1];
    for (int i = 0; i < dealers.length; i++) {
      dealers[i] = i;
    }
    // The dealers multiply their shares when they send, straight into scratch: no product array.
    long[] as = suite.myId() <= 2 * t ? a.share : null;
    long[] bs = suite.myId() <= 2 * t ? b.share : null;
    return new BgwReshare(suite, dealers, suite.sharing.recombine, as, bs, a.length);
  }
}
