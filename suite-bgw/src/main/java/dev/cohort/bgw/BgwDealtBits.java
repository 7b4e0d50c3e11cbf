package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.suite.AllOf;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.StagedProtocol;
import java.util.ArrayList;
import java.util.List;

/**
 * Random bits as the XOR of bits dealt by t + 1 parties: each of P_0..P_t deals its own uniformly
 * random bits, and b = b_0 ⊕ … ⊕ b_t with x ⊕ y = x + y − 2xy, a tree of t multiplications per bit
 * in ⌈log2(t + 1)⌉ rounds after the dealing round. At least one dealer is honest, so b is uniform
 * and unknown to any t parties (semi-honest). No exponentiation: for small t this is far cheaper
 * than the square-root trick of {@link BgwRandomBits} (at n = 3: one multiplication per bit instead
 * of one multiplication, one opening and a 125-squaring root per bit).
 */
final class BgwDealtBits extends StagedProtocol {

  private final BgwSuite suite;
  private final Field field;
  private final int m;
  private List<Shares> level;
  private Shares left;
  private Shares right;
  private Shares result;

  BgwDealtBits(BgwSuite suite, int m) {
    this.suite = suite;
    this.field = suite.field();
    this.m = m;
    List<RoundProtocol> deals = new ArrayList<>();
    for (int dealer = 0; dealer <= suite.threshold; dealer++) {
      long[] bits = dealer == suite.myId() ? suite.privateBits(m) : null;
      deals.add(new BgwReshare(suite, new int[] {dealer}, null, bits, m));
    }
    begin(new AllOf(deals));
  }

  @Override
  protected RoundProtocol next(RoundProtocol finished) {
    if (finished instanceof AllOf dealt) {
      level = new ArrayList<>();
      for (RoundProtocol deal : dealt.parts()) {
        level.add(deal.shares());
      }
    } else {
      level = combine(finished.shares());
    }
    if (level.size() == 1) {
      result = level.get(0);
      return null;
    }
    // XOR the level pairwise: one multiplication of all left halves by all right halves
    int words = field.words();
    List<Shares> lefts = new ArrayList<>();
    List<Shares> rights = new ArrayList<>();
    for (int i = 0; i + 1 < level.size(); i += 2) {
      lefts.add(level.get(i));
      rights.add(level.get(i + 1));
    }
    left = Shares.concat(lefts, words);
    right = Shares.concat(rights, words);
    return suite.multiply(left, right);
  }

  /** x ⊕ y = x + y − 2xy for every pair of the level, plus the odd one out. */
  private List<Shares> combine(Shares products) {
    // additions only: a field multiplication by −2 costs more than two subtractions
    Shares xor = suite.sub(suite.sub(suite.add(left, right), products), products);
    int words = field.words();
    List<Shares> next = new ArrayList<>();
    for (int at = 0; at < xor.length; at += m) {
      next.add(xor.slice(at, m, words));
    }
    if (level.size() % 2 == 1) {
      next.add(level.get(level.size() - 1));
    }
    return next;
  }

  @Override
  public Shares shares() {
    return result;
  }
}
