package dev.cohort.field;

import java.math.BigInteger;
import java.util.Locale;

/**
 * The fields Cohort offers, and their lookup by modulus or by name.
 *
 * <p>The Mersenne fields are singletons; {@link #prime} and {@link #byName} return them whenever
 * the modulus matches, so callers always get the fast kernels for those primes.
 */
public final class Fields {

  /** {@code p = 2^61 - 1}, one word per element: the default for throughput. */
  public static final Field MERSENNE_61 = new Mersenne61();

  /** {@code p = 2^127 - 1}, two words per element: the default where bits matter. */
  public static final Field MERSENNE_127 = new Mersenne127();

  private static final String ACCEPTED =
      "m61, m127, 2^61-1, 2^127-1, or a decimal prime >= 5 (optionally prefixed with p)";

  private Fields() {}

  /**
   * The field of the prime {@code p}: a Mersenne field when {@code p} is {@code 2^61 - 1} or {@code
   * 2^127 - 1}, otherwise a {@link BigPrimeField}.
   *
   * @throws IllegalArgumentException if {@code p} is not a prime of at least 3 bits
   */
  public static Field prime(BigInteger p) {
    if (p.equals(MERSENNE_61.modulus())) {
      return MERSENNE_61;
    }
    if (p.equals(MERSENNE_127.modulus())) {
      return MERSENNE_127;
    }
    return new BigPrimeField(p);
  }

  /**
   * The field named in configuration: {@code m61}, {@code m127}, {@code 2^61-1}, {@code 2^127-1},
   * or a prime in decimal, optionally written as {@link Field#name()} prints it ({@code p1000003}).
   *
   * @throws IllegalArgumentException if the name is none of these, or the number is not prime
   */
  public static Field byName(String name) {
    String key = name.trim().toLowerCase(Locale.ROOT);
    switch (key) {
      case "m61":
      case "2^61-1":
        return MERSENNE_61;
      case "m127":
      case "2^127-1":
        return MERSENNE_127;
      default:
        break;
    }
    String digits = key.startsWith("p") ? key.substring(1) : key;
    if (digits.isEmpty() || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      throw new IllegalArgumentException("unknown field '" + name + "': expected " + ACCEPTED);
    }
    return prime(new BigInteger(digits));
  }
}
