package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cohort.random.Prg;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class Gf128Test {

  /** The field polynomial X^128 + X^7 + X^2 + X + 1 as a BigInteger bit pattern. */
  private static final BigInteger MODULUS =
      BigInteger.ONE.shiftLeft(128).or(BigInteger.valueOf(0x87));

  /** Reference: carry-less schoolbook product on BigInteger bits, reduced bit by bit. */
  private static long[] reference(long aLo, long aHi, long bLo, long bHi) {
    BigInteger a = toBig(aLo, aHi);
    BigInteger b = toBig(bLo, bHi);
    BigInteger product = BigInteger.ZERO;
    for (int i = 0; i < 128; i++) {
      if (b.testBit(i)) {
        product = product.xor(a.shiftLeft(i));
      }
    }
    for (int i = 254; i >= 128; i--) {
      if (product.testBit(i)) {
        product = product.xor(MODULUS.shiftLeft(i - 128));
      }
    }
    return new long[] {product.longValue(), product.shiftRight(64).longValue()};
  }

  private static BigInteger toBig(long lo, long hi) {
    return new BigInteger(Long.toUnsignedString(hi))
        .shiftLeft(64)
        .or(new BigInteger(Long.toUnsignedString(lo)));
  }

  @Test
  void multiply_randomAndEdgeOperands_matchesReference() {
    Prg prg = Prg.seeded(1);
    long[][] edges = {{0, 0}, {1, 0}, {0, 1L << 63}, {-1, -1}, {1L << 63, 0}};
    long[] out = new long[2];
    for (int t = 0; t < 300; t++) {
      long[] a = t < 25 ? edges[t / 5] : new long[] {prg.nextLong(), prg.nextLong()};
      long[] b = t < 25 ? edges[t % 5] : new long[] {prg.nextLong(), prg.nextLong()};
      Gf128.multiply(a[0], a[1], b[0], b[1], out, 0);
      assertArrayEquals(reference(a[0], a[1], b[0], b[1]), out, "operands " + t);
    }
  }

  @Test
  void correlationCheck_chunksOfRows_matchesSumOfRowProducts() {
    Prg prg = Prg.seeded(2);
    int words = 3; // checked as two chunks: 2 words (128 rows), then 1 word
    long[] columns = new long[129 * words];
    prg.fill(columns, 0, columns.length);
    long[] chunked = new long[128 * words]; // the same matrix in chunks of 2 words per column
    for (int c = 0; c < 128; c++) {
      chunked[2 * c] = columns[c * words];
      chunked[2 * c + 1] = columns[c * words + 1];
      chunked[256 + c] = columns[c * words + 2];
    }
    CorrelationCheck check = new CorrelationCheck(Prg.seeded(3));
    check.add(chunked, 0, 2, columns, 128 * words);
    check.add(chunked, 256, 1, columns, 128 * words + 2);
    long[] total = new long[2];
    check.result(total, 0);
    long[] sums = new long[2];
    check.extraResult(sums, 0);

    Prg chi = Prg.seeded(3);
    long[] expected = new long[2];
    long[] x = new long[2];
    for (int j = 0; j < 64 * words; j++) {
      long chiLo = chi.nextLong();
      long chiHi = chi.nextLong();
      long rowLo = 0;
      long rowHi = 0;
      for (int c = 0; c < 128; c++) {
        long bit = columns[c * words + (j >>> 6)] >>> (j & 63) & 1;
        if (c < 64) {
          rowLo |= bit << c;
        } else {
          rowHi |= bit << (c - 64);
        }
      }
      long[] product = reference(chiLo, chiHi, rowLo, rowHi);
      expected[0] ^= product[0];
      expected[1] ^= product[1];
      if ((columns[128 * words + (j >>> 6)] >>> (j & 63) & 1) != 0) {
        x[0] ^= chiLo;
        x[1] ^= chiHi;
      }
    }
    assertArrayEquals(expected, total);
    assertArrayEquals(x, sums);
  }
}
