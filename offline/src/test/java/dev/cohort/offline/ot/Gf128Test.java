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

  /** Σ_j χ_j·row_j of a column-major matrix ({@code words} per column), one product at a time. */
  private static long[] rowProducts(long[] columns, int words, Prg chi) {
    long[] sum = new long[2];
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
      sum[0] ^= product[0];
      sum[1] ^= product[1];
    }
    return sum;
  }

  /** The same matrix in chunks of 2 words per column, then 1 word. */
  private static long[] chunked(long[] columns) {
    long[] chunked = new long[128 * 3];
    for (int c = 0; c < 128; c++) {
      chunked[2 * c] = columns[c * 3];
      chunked[2 * c + 1] = columns[c * 3 + 1];
      chunked[256 + c] = columns[c * 3 + 2];
    }
    return chunked;
  }

  @Test
  void correlationCheck_chunksOfRows_matchesSumOfRowProducts() {
    Prg prg = Prg.seeded(2);
    int words = 3; // checked as two chunks: 2 words (128 rows), then 1 word
    long[] receiver = new long[128 * words];
    long[] sender = new long[128 * words];
    long[] choiceBits = new long[words];
    prg.fill(receiver, 0, receiver.length);
    prg.fill(sender, 0, sender.length);
    prg.fill(choiceBits, 0, words);
    CorrelationCheck check = new CorrelationCheck(Prg.seeded(3));
    check.add(chunked(receiver), choiceBits, chunked(sender), 0, 2);
    check.add(chunked(receiver), choiceBits, chunked(sender), 2, 1);
    long[] values = new long[4];
    check.receiverResult(values);
    long[] senderSum = new long[2];
    check.senderResult(senderSum);

    assertArrayEquals(
        rowProducts(receiver, words, Prg.seeded(3)), new long[] {values[2], values[3]});
    assertArrayEquals(rowProducts(sender, words, Prg.seeded(3)), senderSum);
    Prg chi = Prg.seeded(3);
    long[] x = new long[2];
    for (int j = 0; j < 64 * words; j++) {
      long chiLo = chi.nextLong();
      long chiHi = chi.nextLong();
      if ((choiceBits[j >>> 6] >>> (j & 63) & 1) != 0) {
        x[0] ^= chiLo;
        x[1] ^= chiHi;
      }
    }
    assertArrayEquals(x, new long[] {values[0], values[1]});
  }
}
