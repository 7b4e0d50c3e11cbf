package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;

/**
 * An in-process trusted dealer seeded with a number that every party knows: <b>INSECURE</b>, for
 * tests and benchmarks only. Each party derives everyone's shares from the common seed and keeps
 * its own, so anyone who knows the seed knows every secret, the MAC key included.
 *
 * <p>The material is random and valid — never zeros: MAC key shares, values and shares are
 * uniformly random field elements (zeros hide bugs). Each kind of material comes from its own PRG
 * stream, so the k-th triple is the same sharing at every party whatever else was drawn.
 *
 * <p>An optional limit per kind turns "more material than a real offline phase would have produced"
 * into a clear error naming the kind.
 */
public final class InsecureDealer implements SpdzPreprocessing {

  private static final long MAC_KEY = 0;
  private static final long TRIPLES = 1;
  private static final long RANDOM = 2;
  private static final long BITS = 3;
  private static final long MASKS = 16; // + owner

  private final Field field;
  private final int party;
  private final int parties;
  private final long limit;
  private final long[] alpha; // the whole key: only a dealer knows it
  private final long[] alphaShare;
  private final Prg triples;
  private final Prg random;
  private final Prg bits;
  private final Prg[] masks;
  private long triplesUsed;
  private long randomUsed;
  private long bitsUsed;
  private final long[] masksUsed;

  /**
   * The dealer of {@code party}; {@code limit} caps each kind of material (per owner for input
   * masks), {@link Long#MAX_VALUE} for none.
   */
  public InsecureDealer(Field field, int party, int parties, long seed, long limit) {
    this(field, party, parties, keyOf(seed), limit);
  }

  /**
   * The dealer of {@code party} keyed by a 16-byte {@code key}: as insecure as whoever holds the
   * key, which is everyone in a test. {@link DealerFiles} uses a fresh secret key.
   */
  InsecureDealer(Field field, int party, int parties, byte[] key, long limit) {
    if (parties < 2 || party < 0 || party >= parties) {
      throw new IllegalArgumentException(
          "party (" + party + ") must be in [0, parties) with parties (" + parties + ") >= 2");
    }
    if (limit < 0) {
      throw new IllegalArgumentException("limit (" + limit + ") must be >= 0");
    }
    this.field = field;
    this.party = party;
    this.parties = parties;
    this.limit = limit;
    this.alpha = field.alloc(1);
    this.alphaShare = field.alloc(1);
    Prg keys = Prg.fromKey(key, MAC_KEY);
    long[] shares = field.alloc(parties);
    do {
      field.random(keys, shares, 0, parties);
      field.sum(shares, 0, parties, alpha, 0);
    } while (isZero(alpha));
    System.arraycopy(shares, party * field.words(), alphaShare, 0, field.words());
    this.triples = Prg.fromKey(key, TRIPLES);
    this.random = Prg.fromKey(key, RANDOM);
    this.bits = Prg.fromKey(key, BITS);
    this.masks = new Prg[parties];
    for (int owner = 0; owner < parties; owner++) {
      masks[owner] = Prg.fromKey(key, MASKS + owner);
    }
    this.masksUsed = new long[parties];
  }

  /** Dealers seeded with {@code seed} for every party, without a limit: INSECURE. */
  public static PreprocessingSource source(long seed) {
    return source(seed, Long.MAX_VALUE);
  }

  /** Dealers seeded with {@code seed}, each kind capped at {@code limit}: INSECURE. */
  public static PreprocessingSource source(long seed, long limit) {
    return (field, party, parties) -> new InsecureDealer(field, party, parties, seed, limit);
  }

  private static byte[] keyOf(long seed) {
    byte[] key = new byte[16];
    byte[] tag = "spdzdeal".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int b = 0; b < 8; b++) {
      key[b] = (byte) (seed >>> (8 * b));
      key[8 + b] = tag[b];
    }
    return key;
  }

  @Override
  public long[] macKeyShare() {
    return alphaShare.clone();
  }

  @Override
  public Triples triples(int count) {
    triplesUsed = take("triples", triplesUsed, count);
    long[] a = field.alloc(count);
    long[] b = field.alloc(count);
    long[] c = field.alloc(count);
    field.random(triples, a, 0, count);
    field.random(triples, b, 0, count);
    field.mul(a, 0, b, 0, c, 0, count);
    return new Triples(deal(triples, a, count), deal(triples, b, count), deal(triples, c, count));
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    masksUsed[owner] = take("input masks of P" + owner, masksUsed[owner], count);
    long[] r = field.alloc(count);
    field.random(masks[owner], r, 0, count);
    Shares shares = deal(masks[owner], r, count);
    return new InputMasks(shares, owner == party ? r : null);
  }

  @Override
  public Shares randomElements(int count) {
    randomUsed = take("random elements", randomUsed, count);
    long[] r = field.alloc(count);
    field.random(random, r, 0, count);
    return deal(random, r, count);
  }

  @Override
  public Shares randomBits(int count) {
    bitsUsed = take("random bits", bitsUsed, count);
    long[] r = field.alloc(count);
    for (int i = 0; i < count; i++) {
      field.encode(bits.nextLong() & 1, r, i);
    }
    return deal(bits, r, count);
  }

  private long take(String what, long used, int count) {
    if (count > limit - used) {
      throw new IllegalStateException(
          "SPDZ preprocessing ran out of "
              + what
              + ": "
              + count
              + " needed, "
              + (limit - used)
              + " of "
              + limit
              + " left");
    }
    return used + count;
  }

  /** This party's authenticated shares of {@code values}, drawing everyone's from {@code prg}. */
  private Shares deal(Prg prg, long[] values, int count) {
    long[] macs = field.alloc(count);
    field.scale(values, 0, alpha, 0, macs, 0, count);
    return new Shares(count, split(prg, values, count), split(prg, macs, count));
  }

  /** Additive shares: P0..P(n-2) random, the last party the difference. */
  private long[] split(Prg prg, long[] values, int count) {
    long[] sum = field.alloc(count);
    long[] share = field.alloc(count);
    long[] mine = null;
    for (int p = 0; p < parties - 1; p++) {
      field.random(prg, share, 0, count);
      field.add(sum, 0, share, 0, sum, 0, count);
      if (p == party) {
        mine = share.clone();
      }
    }
    if (party == parties - 1) {
      mine = share;
      field.sub(values, 0, sum, 0, mine, 0, count);
    }
    return mine;
  }

  private static boolean isZero(long[] a) {
    for (long w : a) {
      if (w != 0) {
        return false;
      }
    }
    return true;
  }
}
