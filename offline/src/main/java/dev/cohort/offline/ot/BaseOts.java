package dev.cohort.offline.ot;

import dev.cohort.net.Channel;
import dev.cohort.random.Prg;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * Base oblivious transfers: the "simplest OT" of Chou and Orlandi [CO15] on the prime-order curve
 * P-256 (secp256r1, cofactor 1), in two rounds for every ordered pair at once.
 *
 * <p>For the OTs from sender S to receiver R in one call:
 *
 * <pre>
 *   round 1  S -> R   A = a·G                       (a fresh scalar per peer and call)
 *   round 2  R -> S   B_j = b_j·G + c_j·A           (one fresh b_j per OT j)
 *   keys     S: k0_j = H(j, A, B_j, a·B_j),  k1_j = H(j, A, B_j, a·B_j − a·A)
 *            R: k_{c_j} = H(j, A, B_j, b_j·A)
 * </pre>
 *
 * H is SHA-256 with a domain label, the sender's and the receiver's index and the call number,
 * truncated to 128 bits. Hashing the sender's and the receiver's group elements A and B_j into
 * every key follows the corrected variants of [CO15] (see [GIR17], [HL17]).
 *
 * <p>Security: the receiver's choice is perfectly hidden (B_j is a uniform point whatever c_j); a
 * receiver that learns both keys of an OT solves computational Diffie–Hellman on P-256, in the
 * random-oracle model. This is security against active adversaries in the stand-alone setting; the
 * original UC proof of [CO15] has a gap [GIR17], which is why the OT extension on top uses only the
 * privacy of these keys, not simulation-based extraction from them. Received points are validated
 * (canonical compressed encoding, on the curve, not the point at infinity); on P-256 every such
 * point is in the prime-order group. The scalar arithmetic is not constant-time.
 *
 * <p>Cost per OT: the receiver does one fixed-base (b_j·G) and one variable-base (b_j·A) scalar
 * multiplication, the sender one variable-base (a·B_j) multiplication and a subtraction; plus one
 * fixed-base and one variable-base multiplication per peer and call. Each point travels as five
 * words (33 bytes, zero-padded). Meant for the few hundred OTs that seed an OT extension.
 */
public final class BaseOts implements PairwiseOts {

  /** The most OTs per ordered pair in one call (base OTs are for seeds, not for bulk). */
  public static final int MAX_COUNT = 1 << 16;

  /** Words per point on the wire: the 33-byte compressed encoding, zero-padded to 40 bytes. */
  static final int POINT_WORDS = 5;

  private static final int POINT_BYTES = 33;
  private static final byte[] DOMAIN =
      "cohort/offline/ot/base/CO15-P256/v1".getBytes(StandardCharsets.US_ASCII);
  private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256r1");

  private final Channel channel;
  private final Prg prg;
  private final ECCurve curve = CURVE.getCurve();
  private final ECPoint generator = CURVE.getG();
  private final BigInteger order = CURVE.getN();
  private final FixedPointCombMultiplier fixedBase = new FixedPointCombMultiplier();
  private long calls;

  /** Base OTs over {@code channel}, with scalars drawn from {@code prg}. */
  public BaseOts(Channel channel, Prg prg) {
    this.channel = channel;
    this.prg = prg;
  }

  @Override
  public OtBatch transfer(int count, long[][] choices) {
    int parties = channel.parties();
    int me = channel.myId();
    Arguments.check(count, MAX_COUNT, choices, me);
    long call = calls++;
    int[] lengths = new int[parties];
    long[][] outgoing = new long[parties][];

    // Round 1: as sender, A = a·G to every peer.
    BigInteger[] senderScalar = new BigInteger[parties];
    byte[][] senderPoint = new byte[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        senderScalar[p] = randomScalar();
        senderPoint[p] = fixedBase.multiply(generator, senderScalar[p]).getEncoded(true);
        outgoing[p] = new long[POINT_WORDS];
        pack(senderPoint[p], outgoing[p], 0);
        lengths[p] = POINT_WORDS;
      }
    }
    long[][] incoming = channel.exchange(outgoing, lengths);

    // Round 2: as receiver, B_j = b_j·G + c_j·A to every peer; the chosen key is H(b_j·A).
    long[][] received = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        Aborts.checkLength(channel, incoming[p], p, POINT_WORDS, "base OT round 1");
        byte[] encodedA = new byte[POINT_BYTES];
        ECPoint a = decode(incoming[p], 0, p, encodedA);
        outgoing[p] = new long[count * POINT_WORDS];
        lengths[p] = count * POINT_WORDS;
        received[p] = new long[2 * count];
        KeyHash hash = new KeyHash(p, me, call);
        for (int j = 0; j < count; j++) {
          BigInteger b = randomScalar();
          ECPoint bG = fixedBase.multiply(generator, b);
          boolean choice = (choices[p][j >>> 6] >>> (j & 63) & 1) != 0;
          byte[] encodedB = (choice ? bG.add(a) : bG).getEncoded(true);
          pack(encodedB, outgoing[p], j * POINT_WORDS);
          byte[] shared = a.multiply(b).getEncoded(true);
          hash.derive(j, encodedA, encodedB, shared, received[p]);
        }
      }
    }
    incoming = channel.exchange(outgoing, lengths);

    // As sender: k0 = H(a·B_j), k1 = H(a·B_j − a·A).
    long[][] zero = new long[parties][];
    long[][] one = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        Aborts.checkLength(channel, incoming[p], p, count * POINT_WORDS, "base OT round 2");
        BigInteger a = senderScalar[p];
        ECPoint aA = curve.decodePoint(senderPoint[p]).multiply(a);
        zero[p] = new long[2 * count];
        one[p] = new long[2 * count];
        KeyHash hash = new KeyHash(me, p, call);
        byte[] encodedB = new byte[POINT_BYTES];
        for (int j = 0; j < count; j++) {
          ECPoint b = decode(incoming[p], j * POINT_WORDS, p, encodedB);
          ECPoint aB = b.multiply(a);
          byte[] s0 = aB.getEncoded(true);
          byte[] s1 = aB.subtract(aA).getEncoded(true);
          hash.derive(j, senderPoint[p], encodedB, s0, zero[p]);
          hash.derive(j, senderPoint[p], encodedB, s1, one[p]);
        }
      }
    }
    return new OtBatch(zero, one, received);
  }

  /** A uniform scalar in [1, n): 384 random bits reduced mod n − 1 (bias below 2^−128). */
  private BigInteger randomScalar() {
    byte[] bytes = new byte[48];
    prg.nextBytes(bytes);
    return new BigInteger(1, bytes).mod(order.subtract(BigInteger.ONE)).add(BigInteger.ONE);
  }

  /**
   * Reads the point at {@code words[offset ..]} into {@code encoded} and decodes it, aborting
   * unless it is a canonical compressed encoding of a curve point other than infinity.
   */
  private ECPoint decode(long[] words, int offset, int peer, byte[] encoded) {
    for (int k = POINT_BYTES; k < 8 * POINT_WORDS; k++) {
      if ((byte) (words[offset + k / 8] >>> (8 * (k % 8))) != 0) {
        throw Aborts.abort(channel, peer, "base OT point check: nonzero padding after a point");
      }
    }
    for (int k = 0; k < POINT_BYTES; k++) {
      encoded[k] = (byte) (words[offset + k / 8] >>> (8 * (k % 8)));
    }
    if (encoded[0] != 2 && encoded[0] != 3) {
      throw Aborts.abort(
          channel, peer, "base OT point check: not a compressed point (or the point at infinity)");
    }
    ECPoint point;
    try {
      point = curve.decodePoint(encoded);
    } catch (IllegalArgumentException e) {
      throw Aborts.abort(
          channel, peer, "base OT point check: not on the curve or not canonically encoded");
    }
    if (point.isInfinity() || !point.isValid()) {
      throw Aborts.abort(channel, peer, "base OT point check: not a valid curve point");
    }
    return point;
  }

  private static void pack(byte[] encoded, long[] words, int offset) {
    for (int k = 0; k < encoded.length; k++) {
      words[offset + k / 8] |= (encoded[k] & 0xFFL) << (8 * (k % 8));
    }
  }

  /** H of one transcript: the key of OT {@code index} into {@code out[2·index, 2·index + 2)}. */
  private static final class KeyHash {
    private final MessageDigest hash = sha256();
    private final byte[] prefix;

    KeyHash(int sender, int receiver, long call) {
      prefix = new byte[DOMAIN.length + 24];
      System.arraycopy(DOMAIN, 0, prefix, 0, DOMAIN.length);
      putLong(prefix, DOMAIN.length, sender);
      putLong(prefix, DOMAIN.length + 8, receiver);
      putLong(prefix, DOMAIN.length + 16, call);
    }

    void derive(int index, byte[] senderPoint, byte[] receiverPoint, byte[] shared, long[] out) {
      byte[] indexBytes = new byte[8];
      putLong(indexBytes, 0, index);
      hash.update(prefix);
      hash.update(indexBytes);
      hash.update(senderPoint);
      hash.update(receiverPoint);
      hash.update(shared);
      byte[] digest = hash.digest();
      out[2 * index] = littleEndian(digest, 0);
      out[2 * index + 1] = littleEndian(digest, 8);
    }
  }

  private static void putLong(byte[] bytes, int offset, long value) {
    for (int k = 0; k < 8; k++) {
      bytes[offset + k] = (byte) (value >>> (8 * k));
    }
  }

  private static long littleEndian(byte[] bytes, int offset) {
    long value = 0;
    for (int k = 7; k >= 0; k--) {
      value = value << 8 | (bytes[offset + k] & 0xFFL);
    }
    return value;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
