package dev.cohort.suite;

import dev.cohort.field.Field;

/**
 * Random masks composed from random bits: r = Σ 2^i·b_i over {@code bits} random bits, exactly
 * uniform in [0, 2^bits). The default of {@link Suite#randomMasks}, for suites whose random bits
 * are authenticated (SPDZ) or otherwise the cheapest uniform source.
 */
final class ComposedMasks extends StagedProtocol {

  private final Suite suite;
  private final int length;
  private final int bits;
  private Shares result;

  ComposedMasks(Suite suite, int length, int bits) {
    this.suite = suite;
    this.length = length;
    this.bits = bits;
    begin(suite.randomBits(length * bits));
  }

  @Override
  protected RoundProtocol next(RoundProtocol finished) {
    Shares all = finished.shares(); // bit-major: bit i of mask j at i * length + j
    Field field = suite.field();
    int words = field.words();
    long[] power = field.alloc(1);
    Shares sum = all.slice(0, length, words);
    for (int i = 1; i < bits; i++) {
      field.encode(java.math.BigInteger.ONE.shiftLeft(i), power, 0);
      sum = suite.add(sum, suite.scale(all.slice(i * length, length, words), power, 0));
    }
    result = sum;
    return null;
  }

  @Override
  public Shares shares() {
    return result;
  }
}
