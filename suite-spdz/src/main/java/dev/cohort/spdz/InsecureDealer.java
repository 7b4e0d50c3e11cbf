package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-process trusted dealer seeded with a number that every party knows: <b>INSECURE</b>, for
 * tests and benchmarks only. Each party derives everyone's shares from the common seed and keeps
 * its own, so anyone who knows the seed knows every secret, the MAC key included.
 *
 * <p>The material is random and valid — never zeros: MAC key shares, values and shares are
 * uniformly random field elements (zeros hide bugs). Each kind of material comes from its own PRG
 * streams, so the k-th triple is the same sharing at every party whatever else was drawn.
 *
 * <p>Shares are additive: party q &lt; n − 1 holds the next elements of the kind's share stream q
 * (its share of the value, then of the MAC), and party n − 1 holds the value minus all of those. So
 * a party other than the last draws only its own shares, and only the last party (and an input
 * mask's owner, who needs the mask) draws the values: about half the work of drawing every party's
 * shares at every party, which matters because benchmarks deal inline, inside the online phase.
 *
 * <p>An optional limit per kind turns "more material than a real offline phase would have produced"
 * into a clear error naming the kind.
 *
 * <p>A failed MAC check burns the key (see {@link SpdzPreprocessing}): a {@link #source(long)}
 * remembers, for as long as it lives in this JVM, each party whose dealer revealed its σ_i in a
 * check that never passed, and refuses to deal to that party again. It protects only that source
 * object: a new source from the same seed deals the same α again, as the seeded dealer is INSECURE
 * anyway. A source shared by engines of one party that run at the same time would refuse one while
 * another's check is in flight: give each its own.
 */
public final class InsecureDealer implements SpdzPreprocessing {

  private static final long MAC_KEY = 0;
  private static final long TRIPLES = 1;
  private static final long RANDOM = 2;
  private static final long BITS = 3;
  private static final long MASKS = 16; // + owner
  private static final long INPUT_BITS = 1L << 24; // + owner

  private final Field field;
  private final int party;
  private final int parties;
  private final long limit;
  private final long[] alpha; // the whole key: only a dealer knows it
  private final long[] alphaShare;
  private final Stream triples;
  private final Stream random;
  private final Stream bits;
  private final Stream[] masks;
  private final Stream[] inputBits;
  private final Source source; // null where not dealt by a source: nothing to refuse
  private long triplesUsed;
  private long randomUsed;
  private long bitsUsed;
  private final long[] masksUsed;
  private final long[] inputBitsUsed;

  /**
   * The dealer of {@code party}; {@code limit} caps each kind of material (per owner for input
   * masks and input bits), {@link Long#MAX_VALUE} for none.
   */
  public InsecureDealer(Field field, int party, int parties, long seed, long limit) {
    this(field, party, parties, keyOf(seed), limit);
  }

  /**
   * The dealer of {@code party} keyed by a 16-byte {@code key}: as insecure as whoever holds the
   * key, which is everyone in a test. {@link DealerFiles} uses a fresh secret key.
   */
  InsecureDealer(Field field, int party, int parties, byte[] key, long limit) {
    this(field, party, parties, key, limit, null);
  }

  private InsecureDealer(
      Field field, int party, int parties, byte[] key, long limit, Source source) {
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
    this.triples = new Stream(key, TRIPLES, false);
    this.random = new Stream(key, RANDOM, false);
    this.bits = new Stream(key, BITS, false);
    this.masks = new Stream[parties];
    for (int owner = 0; owner < parties; owner++) {
      masks[owner] = new Stream(key, MASKS + owner, owner == party);
    }
    this.masksUsed = new long[parties];
    this.inputBits = new Stream[parties];
    for (int owner = 0; owner < parties; owner++) {
      inputBits[owner] = new Stream(key, INPUT_BITS + owner, owner == party);
    }
    this.inputBitsUsed = new long[parties];
    this.source = source;
  }

  /** Dealers seeded with {@code seed} for every party, without a limit: INSECURE. */
  public static PreprocessingSource source(long seed) {
    return source(seed, Long.MAX_VALUE);
  }

  /**
   * Dealers seeded with {@code seed}, each kind capped at {@code limit}: INSECURE. The source
   * refuses a party whose dealer revealed σ_i in a MAC check that never passed.
   */
  public static PreprocessingSource source(long seed, long limit) {
    return new Source(keyOf(seed), limit);
  }

  @Override
  public void beforeMacReveal() {
    if (source != null) {
      source.revealing.add(this);
    }
  }

  @Override
  public void macCheckPassed() {
    if (source != null) {
      source.revealing.remove(this);
    }
  }

  /** Dealers of one key, and those whose MAC check revealed σ_i and has not passed (yet). */
  private static final class Source implements PreprocessingSource {
    private final byte[] key;
    private final long limit;
    private final Set<InsecureDealer> revealing = ConcurrentHashMap.newKeySet();

    Source(byte[] key, long limit) {
      this.key = key;
      this.limit = limit;
    }

    @Override
    public SpdzPreprocessing open(Field field, int party, int parties) {
      for (InsecureDealer dealer : revealing) {
        if (dealer.party == party) {
          throw new MaterialException(
              "a MAC check of "
                  + PartyId.of(party)
                  + " failed (or was interrupted) with this in-process dealer's MAC key: the key"
                  + " may be known to a cheating party, so this source will not deal it again;"
                  + " use fresh preprocessing (a new dealer seed, or files dealt with 'cohort"
                  + " preprocess')");
        }
      }
      return new InsecureDealer(field, party, parties, key, limit, this);
    }
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
    long[] a = null;
    long[] b = null;
    long[] c = null;
    if (triples.values != null) {
      a = field.alloc(count);
      b = field.alloc(count);
      c = field.alloc(count);
      field.random(triples.values, a, 0, count);
      field.random(triples.values, b, 0, count);
      field.mul(a, 0, b, 0, c, 0, count);
    }
    return new Triples(deal(triples, a, count), deal(triples, b, count), deal(triples, c, count));
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    masksUsed[owner] = take("input masks of P" + owner, masksUsed[owner], count);
    Stream stream = masks[owner];
    long[] r = null;
    if (stream.values != null) {
      r = field.alloc(count);
      field.random(stream.values, r, 0, count);
    }
    Shares shares = deal(stream, r, count);
    return new InputMasks(shares, owner == party ? r : null);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    inputBitsUsed[owner] = take("input bits of P" + owner, inputBitsUsed[owner], count);
    Stream stream = inputBits[owner];
    long[] r = null;
    if (stream.values != null) {
      r = field.alloc(count);
      for (int i = 0; i < count; i++) {
        field.encode(stream.values.nextLong() & 1, r, i);
      }
    }
    Shares shares = deal(stream, r, count);
    return new InputMasks(shares, owner == party ? r : null);
  }

  @Override
  public Shares randomElements(int count) {
    randomUsed = take("random elements", randomUsed, count);
    long[] r = null;
    if (random.values != null) {
      r = field.alloc(count);
      field.random(random.values, r, 0, count);
    }
    return deal(random, r, count);
  }

  @Override
  public Shares randomBits(int count) {
    bitsUsed = take("random bits", bitsUsed, count);
    long[] r = null;
    if (bits.values != null) {
      r = field.alloc(count);
      for (int i = 0; i < count; i++) {
        field.encode(bits.values.nextLong() & 1, r, i);
      }
    }
    return deal(bits, r, count);
  }

  private long take(String what, long used, int count) {
    if (count > limit - used) {
      throw new MaterialException(
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

  /**
   * This party's authenticated shares of {@code values} (read only by the last party; null at
   * parties that never draw the values): a party q &lt; n − 1 draws its shares of the values and of
   * their MACs from share stream q; the last party draws every other party's and keeps the
   * differences.
   */
  private Shares deal(Stream stream, long[] values, int count) {
    long[] share = field.alloc(count);
    long[] mac = field.alloc(count);
    if (party < parties - 1) {
      field.random(stream.shares[party], share, 0, count);
      field.random(stream.shares[party], mac, 0, count);
      return new Shares(count, share, mac);
    }
    // share and mac first sum the others' shares; one subtraction per element at the end
    long[] other = parties > 2 ? field.alloc(count) : null;
    for (int q = 0; q < parties - 1; q++) {
      Prg prg = stream.shares[q];
      if (q == 0) {
        field.random(prg, share, 0, count);
        field.random(prg, mac, 0, count);
      } else {
        field.random(prg, other, 0, count);
        field.add(share, 0, other, 0, share, 0, count);
        field.random(prg, other, 0, count);
        field.add(mac, 0, other, 0, mac, 0, count);
      }
    }
    field.sub(values, 0, share, 0, share, 0, count);
    long[] macs = parties > 2 ? other : field.alloc(count);
    field.scale(values, 0, alpha, 0, macs, 0, count);
    field.sub(macs, 0, mac, 0, mac, 0, count);
    return new Shares(count, share, mac);
  }

  /**
   * The PRG streams of one kind of material: the values, and share stream q for each party q &lt; n
   * − 1. A party opens only the streams it draws from.
   */
  private final class Stream {
    final Prg values; // null where this party never needs the values
    final Prg[] shares; // shares[q]: null where this party does not draw party q's shares

    Stream(byte[] key, long kind, boolean needsValues) {
      boolean last = party == parties - 1;
      values = last || needsValues ? Prg.fromKey(key, kind << 32) : null;
      shares = new Prg[parties - 1];
      for (int q = 0; q < parties - 1; q++) {
        if (last || q == party) {
          shares[q] = Prg.fromKey(key, (kind << 32) | (q + 1));
        }
      }
    }
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
