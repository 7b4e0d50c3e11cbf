package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The expansion of OT keys into field elements: reduction against BigInteger, and its shape. */
class KeyExpansionTest {

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  @Test
  void reduce61_edgesAndRandom_matchBigInteger() {
    BigInteger p = Fields.MERSENNE_61.modulus();
    long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 61) - 1, 1L << 61, 7};
    Prg prg = Prg.seeded(61);
    for (int i = 0; i < 2000; i++) {
      long lo = i < 64 ? edges[i % edges.length] : prg.nextLong();
      long hi = i < 64 ? edges[(i / edges.length) % edges.length] : prg.nextLong();
      BigInteger x =
          new BigInteger(Long.toUnsignedString(hi))
              .multiply(TWO_64)
              .add(new BigInteger(Long.toUnsignedString(lo)));
      assertEquals(x.mod(p).longValue(), KeyExpansion.reduce61(lo, hi), lo + ", " + hi);
    }
  }

  @Test
  void expand_sameKeys_sameElements_otherIndexOrKey_others() {
    for (Field f : new Field[] {Fields.MERSENNE_61, Fields.MERSENNE_127}) {
      long[] keys = new long[2 * 50];
      Prg.seeded(5).fill(keys, 0, keys.length);
      long[] out = f.alloc(50 * 3);
      long[] again = f.alloc(50 * 3);
      new KeyExpansion(f).expand(keys, 0, 50, 3, out, 0);
      new KeyExpansion(f).expand(keys, 0, 50, 3, again, 0);
      assertEquals(java.util.Arrays.toString(out), java.util.Arrays.toString(again));
      Set<BigInteger> seen = new HashSet<>();
      for (int i = 0; i < 150; i++) {
        BigInteger v = f.toBigInteger(out, i);
        assertTrue(v.compareTo(f.modulus()) < 0);
        seen.add(v);
      }
      assertEquals(150, seen.size(), f.name());
      long[] shifted = f.alloc(49 * 3);
      new KeyExpansion(f).expand(keys, 1, 49, 3, shifted, 0); // keys from the second on
      assertEquals(f.toBigInteger(out, 3), f.toBigInteger(shifted, 0));
      assertNotEquals(f.toBigInteger(out, 0), f.toBigInteger(out, 1));
    }
  }
}
