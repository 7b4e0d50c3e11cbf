package dev.cohort.transport.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Random;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.custom.sec.SecP256R1Field;
import org.bouncycastle.math.raw.Nat256;
import org.junit.jupiter.api.Test;

/**
 * {@link P256Verifier} against BouncyCastle's {@link ECDSASigner} as the oracle: the same answer
 * for valid signatures, for each field of a valid one broken, for signatures of another key and for
 * random pairs; the tables against BouncyCastle's scalar multiplication; and the group law's
 * special cases (a point plus itself, plus its negation, from infinity).
 */
class P256VerifierTest {

  private static final X9ECParameters P256 = CustomNamedCurves.getByName("secp256r1");
  private static final ECDomainParameters DOMAIN =
      new ECDomainParameters(P256.getCurve(), P256.getG(), P256.getN(), P256.getH());
  private static final BigInteger N = P256.getN();

  private final Random random = new Random(42); // test data only; keys and nonces below too
  private final SecureRandom nonces = deterministic(7);

  private static SecureRandom deterministic(long seed) {
    try {
      SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
      r.setSeed(seed);
      return r;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private BigInteger scalar() {
    BigInteger k;
    do {
      k = new BigInteger(256, random);
    } while (k.signum() == 0 || k.compareTo(N) >= 0);
    return k;
  }

  private byte[] digest() {
    byte[] d = new byte[32];
    random.nextBytes(d);
    return d;
  }

  private BigInteger[] sign(BigInteger key, byte[] digest) {
    ECDSASigner signer = new ECDSASigner();
    signer.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(key, DOMAIN), nonces));
    return signer.generateSignature(digest);
  }

  private static boolean oracle(ECPoint q, byte[] digest, BigInteger r, BigInteger s) {
    ECDSASigner signer = new ECDSASigner();
    signer.init(false, new ECPublicKeyParameters(q, DOMAIN));
    return signer.verifySignature(digest, r, s);
  }

  @Test
  void verify_validAndBrokenSignatures_agreesWithBouncyCastle() {
    for (int k = 0; k < 3; k++) {
      BigInteger key = scalar();
      ECPoint q = DOMAIN.getG().multiply(key).normalize();
      P256Verifier verifier = new P256Verifier(q);
      ECPoint other = DOMAIN.getG().multiply(scalar()).normalize();
      for (int i = 0; i < 100; i++) {
        byte[] digest = digest();
        BigInteger[] rs = sign(key, digest);
        BigInteger r = rs[0];
        BigInteger s = rs[1];
        assertTrue(verifier.verify(digest, r, s));
        byte[] changed = digest.clone();
        changed[random.nextInt(32)] ^= (byte) (1 << random.nextInt(8));
        BigInteger[][] broken = {
          {r.add(BigInteger.ONE).mod(N), s},
          {r, s.add(BigInteger.ONE).mod(N)},
          {s, r},
          {r, N.subtract(s)}, // (r, -s) is valid too: ECDSA's malleability, both must agree
        };
        for (BigInteger[] b : broken) {
          assertEquals(oracle(q, digest, b[0], b[1]), verifier.verify(digest, b[0], b[1]));
        }
        assertFalse(verifier.verify(changed, r, s));
        assertFalse(oracle(other, digest, r, s));
        assertFalse(new P256Verifier(other).verify(digest, r, s));
      }
    }
  }

  @Test
  void verify_randomPairs_agreesWithBouncyCastle() {
    ECPoint q = DOMAIN.getG().multiply(scalar()).normalize();
    P256Verifier verifier = new P256Verifier(q);
    for (int i = 0; i < 200; i++) {
      byte[] digest = digest();
      BigInteger r = scalar();
      BigInteger s = scalar();
      assertEquals(oracle(q, digest, r, s), verifier.verify(digest, r, s));
    }
  }

  @Test
  void verify_outOfRangeOrZero_isRefused() {
    BigInteger key = scalar();
    ECPoint q = DOMAIN.getG().multiply(key).normalize();
    P256Verifier verifier = new P256Verifier(q);
    byte[] digest = digest();
    BigInteger[] rs = sign(key, digest);
    BigInteger[][] outside = {
      {BigInteger.ZERO, rs[1]},
      {rs[0], BigInteger.ZERO},
      {rs[0].add(N), rs[1]},
      {rs[0], rs[1].add(N)},
      {N, rs[1]},
      {rs[0].negate(), rs[1]},
    };
    for (BigInteger[] b : outside) {
      assertFalse(verifier.verify(digest, b[0], b[1]));
      assertFalse(oracle(q, digest, b[0], b[1]));
    }
  }

  @Test
  void verify_digestThatIsZeroModN_agreesWithBouncyCastle() {
    // u1 = 0: no entry of the base point's table is added
    BigInteger key = scalar();
    ECPoint q = DOMAIN.getG().multiply(key).normalize();
    P256Verifier verifier = new P256Verifier(q);
    byte[] zero = new byte[32];
    byte[] n = toBytes(N);
    for (byte[] digest : new byte[][] {zero, n}) {
      BigInteger[] rs = sign(key, digest);
      assertTrue(oracle(q, digest, rs[0], rs[1]));
      assertTrue(verifier.verify(digest, rs[0], rs[1]));
      assertFalse(verifier.verify(digest, rs[0], rs[1].add(BigInteger.ONE)));
    }
  }

  @Test
  void table_entries_areTheMultiplesBouncyCastleComputes() {
    ECPoint p = DOMAIN.getG().multiply(scalar()).normalize();
    int[] table = P256Verifier.table(p);
    int[][] probes = {{0, 1}, {0, 2}, {0, 3}, {0, 255}, {1, 1}, {1, 2}, {17, 128}, {31, 255}};
    for (int[] probe : probes) {
      int row = probe[0];
      int j = probe[1];
      ECPoint expected = p.multiply(BigInteger.valueOf(j).shiftLeft(8 * row)).normalize();
      int at = (row * 255 + j - 1) * 16;
      assertArrayEquals(field(expected.getAffineXCoord().toBigInteger()), slice(table, at));
      assertArrayEquals(field(expected.getAffineYCoord().toBigInteger()), slice(table, at + 8));
    }
  }

  @Test
  void addAffine_samePointNegationAndInfinity_followTheGroupLaw() {
    ECPoint p = DOMAIN.getG().multiply(scalar()).normalize();
    ECPoint q = DOMAIN.getG().multiply(scalar()).normalize();
    int[] points = new int[48]; // p, -p, q
    put(points, 0, p);
    put(points, 16, p.negate().normalize());
    put(points, 32, q);

    P256Verifier.Jacobian sum = new P256Verifier.Jacobian();
    sum.addAffine(points, 0);
    sum.addAffine(points, 0); // p + p: the doubling branch
    assertAffine(p.twice().normalize(), sum);
    sum.addAffine(points, 0);
    assertAffine(p.multiply(BigInteger.valueOf(3)).normalize(), sum);

    P256Verifier.Jacobian zero = new P256Verifier.Jacobian();
    zero.addAffine(points, 0);
    zero.addAffine(points, 16); // p + (-p)
    assertTrue(zero.infinity);
    zero.addAffine(points, 32); // infinity + q
    assertAffine(q, zero);
  }

  private static void assertAffine(ECPoint expected, P256Verifier.Jacobian actual) {
    assertFalse(actual.infinity);
    int[] zz = Nat256.create();
    int[] zInv = Nat256.create();
    int[] x = Nat256.create();
    int[] y = Nat256.create();
    SecP256R1Field.inv(actual.z, zInv);
    SecP256R1Field.square(zInv, zz);
    SecP256R1Field.multiply(actual.x, zz, x);
    SecP256R1Field.multiply(zz, zInv, zz);
    SecP256R1Field.multiply(actual.y, zz, y);
    assertArrayEquals(field(expected.getAffineXCoord().toBigInteger()), x);
    assertArrayEquals(field(expected.getAffineYCoord().toBigInteger()), y);
  }

  private static void put(int[] points, int at, ECPoint p) {
    System.arraycopy(field(p.getAffineXCoord().toBigInteger()), 0, points, at, 8);
    System.arraycopy(field(p.getAffineYCoord().toBigInteger()), 0, points, at + 8, 8);
  }

  private static int[] field(BigInteger v) {
    return SecP256R1Field.fromBigInteger(v);
  }

  private static int[] slice(int[] table, int at) {
    int[] out = new int[8];
    System.arraycopy(table, at, out, 0, 8);
    return out;
  }

  private static byte[] toBytes(BigInteger v) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[32];
    int copy = Math.min(raw.length, 32);
    System.arraycopy(raw, raw.length - copy, out, 32 - copy, copy);
    return out;
  }
}
