package dev.cohort.offline.ot;

import dev.cohort.net.Channel;
import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Actively secure OT extension [KOS15]: after κ = 128 base OTs per ordered pair in the reverse
 * direction, every {@link #transfer} of n OTs per ordered pair costs three rounds, 128·(n + 192)
 * bits plus a few words per ordered pair, and only symmetric cryptography.
 *
 * <p>For the OTs from sender S to receiver R (S's secret Δ ∈ {0,1}^128 was its choice in the base
 * OTs, so S holds seed k^i_{Δ_i} and R holds both seeds k^i_0, k^i_1 of column i):
 *
 * <pre>
 *   R: r = choices ‖ 192 or more random bits (m = 64·⌈(n + 192) / 64⌉ rows in all)
 *      t^i = PRG(k^i_0), u^i = t^i ⊕ PRG(k^i_1) ⊕ r        (columns of m bits)
 *   round 1  R -> S   u^0 .. u^127, and a commitment to R's share of a coin toss
 *   S: q^i = PRG(k^i_{Δ_i}) ⊕ Δ_i·u^i, so that row j is q_j = t_j ⊕ r_j·Δ
 *   round 2  both     open the coin-toss shares; their hash seeds the challenges χ_j ∈ GF(2^128)
 *                     (one stream for both directions of the pair, see CorrelationCheck)
 *   round 3  R -> S   x = Σ_j r_j·χ_j and t = Σ_j t_j·χ_j
 *   S: abort unless Σ_j q_j·χ_j = t ⊕ x·Δ                  (the correlation check)
 *   keys     S: k0_j = H(q_j, i_j), k1_j = H(q_j ⊕ Δ, i_j);   R: k_{r_j} = H(t_j, i_j)
 * </pre>
 *
 * The check makes a receiver that used inconsistent choice bits across the columns (to learn bits
 * of Δ by selective failure) fail except with probability about 2^−64 (s = 64 statistical
 * security); the κ + s = 192 extra random rows hide the real choice bits in x. The challenge seed
 * comes from both parties by commit-then-open (SHA-256 commitments), so neither picks χ. H is
 * {@link TmmoHash}, with a tweak i_j that counts every OT of the pair across calls, so keys never
 * repeat; the PRGs (AES-128 in counter mode) continue from call to call.
 *
 * <p>Every ordered pair runs in the same three rounds: each frame carries this party's messages as
 * receiver and as sender to one peer. A failed check throws before any key of the batch is
 * returned. The first call also runs the base OTs (two more rounds with {@link BaseOts}).
 *
 * <p>Cost: with 2 parties, each spends about 150 ms of CPU time per call of 2^20 OTs in each
 * direction (about 7 million OTs per CPU-second; JFR: about half in the check's tables and
 * look-ups, a fifth in the transpose, a sixth in the hash), and sends 16 bytes per OT plus 3 KiB
 * per call and peer. Memory: three 128-column matrices per peer, reused from call to call, plus the
 * returned keys.
 *
 * <p>Not thread-safe; one instance per party and channel.
 */
public final class KosExtension implements PairwiseOts {

  /** κ, the computational security parameter: base OTs per ordered pair, columns of the matrix. */
  static final int KAPPA = 128;

  /** s, the statistical security parameter of the correlation check. */
  static final int STATISTICAL = 64;

  /** The most OTs per ordered pair in one call: its matrices take 3·16 bytes per OT and peer. */
  public static final int MAX_COUNT = 1 << 26;

  /** Words per column in one chunk of the matrices (4096 rows). */
  private static final int CHUNK_WORDS = 64;

  private static final int COMMIT_WORDS = 4;
  private static final byte[] COMMIT_DOMAIN = ascii("cohort/offline/ot/KOS15/commit/v1");
  private static final byte[] SEED_DOMAIN = ascii("cohort/offline/ot/KOS15/challenge/v1");

  private final Channel channel;
  private final PairwiseOts base;
  private final Prg prg;
  private final int me;
  private final int parties;
  private final TmmoHash hash = new TmmoHash();

  private long[][] delta; // [peer]: this party's Δ as sender to the peer (2 words)
  private AesCtrPrg[][] senderSeeds; // [peer][i]: PRG(k^i_{Δ_i}) as sender to the peer
  private AesCtrPrg[][] zeroSeeds; // [peer][i]: PRG(k^i_0) as receiver from the peer
  private AesCtrPrg[][] oneSeeds; // [peer][i]: PRG(k^i_1) as receiver from the peer
  private Pair[] pairs;
  private long calls;
  private long rowsDone; // tweaks used so far by every ordered pair

  /**
   * An extension over {@code channel} whose base OTs come from {@code base} (run at the first
   * {@link #transfer}) and whose own randomness (Δ, padding choices, coin tosses) from {@code prg}.
   */
  public KosExtension(Channel channel, PairwiseOts base, Prg prg) {
    this.channel = channel;
    this.base = base;
    this.prg = prg;
    this.me = channel.myId();
    this.parties = channel.parties();
  }

  /** An extension with {@link BaseOts} on the same channel, both drawing from {@code prg}. */
  public KosExtension(Channel channel, Prg prg) {
    this(channel, new BaseOts(channel, prg), prg);
  }

  @Override
  public OtBatch transfer(int count, long[][] choices) {
    Arguments.check(count, MAX_COUNT, choices, me);
    if (delta == null) {
      setup();
    }
    int words = (count + KAPPA + STATISTICAL + 63) >>> 6;
    long call = calls++;
    long[][] outgoing = new long[parties][];
    int[] lengths = new int[parties];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        pairs[p].prepare(words);
        outgoing[p] = pairs[p].receiverColumns(choices[p], count, call);
        lengths[p] = KAPPA * words + COMMIT_WORDS;
      }
    }
    long[][] incoming = channel.exchange(outgoing, lengths);
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        Aborts.checkLength(channel, incoming[p], p, KAPPA * words + COMMIT_WORDS, "OT extension");
        pairs[p].senderColumns(incoming[p]);
        outgoing[p] = pairs[p].share;
        lengths[p] = COMMIT_WORDS;
      }
    }
    incoming = channel.exchange(outgoing, lengths);
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        Aborts.checkLength(channel, incoming[p], p, COMMIT_WORDS, "coin-toss opening");
        outgoing[p] = pairs[p].receiverCheck(incoming[p], call);
        lengths[p] = outgoing[p].length;
      }
    }
    incoming = channel.exchange(outgoing, lengths);
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        Aborts.checkLength(channel, incoming[p], p, 4, "OT extension check");
        pairs[p].senderCheck(incoming[p]);
      }
    }
    long[][] zero = new long[parties][];
    long[][] one = new long[parties][];
    long[][] received = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        pairs[p].keys(count, zero, one, received);
      }
    }
    rowsDone += 64L * words;
    return new OtBatch(zero, one, received);
  }

  /** The base OTs, reversed: this party's Δ toward each peer is its choice as base receiver. */
  private void setup() {
    long[][] deltas = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        deltas[p] = new long[] {prg.nextLong(), prg.nextLong()};
      }
    }
    OtBatch seeds = base.transfer(KAPPA, deltas);
    senderSeeds = new AesCtrPrg[parties][];
    zeroSeeds = new AesCtrPrg[parties][];
    oneSeeds = new AesCtrPrg[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        senderSeeds[p] = prgs(seeds.received()[p]);
        zeroSeeds[p] = prgs(seeds.zero()[p]);
        oneSeeds[p] = prgs(seeds.one()[p]);
      }
    }
    pairs = new Pair[parties];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        pairs[p] = new Pair(p);
      }
    }
    delta = deltas;
  }

  private static AesCtrPrg[] prgs(long[] keys) {
    AesCtrPrg[] prgs = new AesCtrPrg[KAPPA];
    byte[] key = new byte[16];
    for (int i = 0; i < KAPPA; i++) {
      putLong(key, 0, keys[2 * i]);
      putLong(key, 8, keys[2 * i + 1]);
      prgs[i] = new AesCtrPrg(key, 0);
    }
    Arrays.fill(key, (byte) 0);
    return prgs;
  }

  /**
   * The state toward one peer, as receiver from it and as sender to it; its arrays are reused from
   * call to call (grown when a call needs more).
   *
   * <p>Matrices and the u frame are column-major in chunks of {@value #CHUNK_WORDS} words (4096
   * rows): chunk k holds the 128 columns' words {@code [64k, 64k + width)} one column after the
   * other from word {@code 128·64k}, so that the check and the transpose, which gather the 128
   * columns' words of a block, read a few consecutive kilobytes.
   */
  private final class Pair {
    private final int peer;
    private final long[] share = new long[COMMIT_WORDS];
    private final long[] rows = new long[2 * 64 * CHUNK_WORDS];
    private final long[] block = new long[64];
    private int words;
    private long[] receiver = new long[0]; // t: PRG(k^i_0), chunked columns
    private long[] choiceBits = new long[0]; // r
    private long[] sender = new long[0]; // q, chunked columns
    private long[] frame = new long[0]; // u, then the commitment
    private long[] peerCommitment;
    private long[] senderSum; // Σ_j χ_j·q_j of this call

    Pair(int peer) {
      this.peer = peer;
    }

    /** Sizes the arrays for {@code words} words per column. */
    void prepare(int words) {
      this.words = words;
      if (receiver.length < KAPPA * words) {
        receiver = new long[KAPPA * words];
        choiceBits = new long[words];
        sender = new long[KAPPA * words];
        frame = new long[KAPPA * words + COMMIT_WORDS];
      }
    }

    /** Round 1 as receiver: the u columns and the commitment to this party's coin-toss share. */
    long[] receiverColumns(long[] choices, int count, long call) {
      long[] r = choiceBits;
      prg.fill(r, 0, words); // padding rows get random choices
      int full = count >>> 6;
      System.arraycopy(choices, 0, r, 0, full);
      if ((count & 63) != 0) {
        long low = (1L << (count & 63)) - 1;
        r[full] = choices[full] & low | r[full] & ~low;
      }
      for (int first = 0; first < words; first += CHUNK_WORDS) {
        int width = Math.min(CHUNK_WORDS, words - first);
        for (int i = 0; i < KAPPA; i++) {
          int column = KAPPA * first + i * width;
          zeroSeeds[peer][i].fill(receiver, column, width);
          oneSeeds[peer][i].fill(frame, column, width);
          for (int w = 0; w < width; w++) {
            frame[column + w] ^= receiver[column + w] ^ r[first + w];
          }
        }
      }
      prg.fill(share, 0, COMMIT_WORDS);
      commit(me, peer, call, share, frame, KAPPA * words);
      return frame;
    }

    /** After round 1 as sender: q^i = PRG(k^i_{Δ_i}) ⊕ Δ_i·u^i. */
    void senderColumns(long[] u) {
      long[] d = delta[peer];
      for (int first = 0; first < words; first += CHUNK_WORDS) {
        int width = Math.min(CHUNK_WORDS, words - first);
        for (int i = 0; i < KAPPA; i++) {
          int column = KAPPA * first + i * width;
          senderSeeds[peer][i].fill(sender, column, width);
          if ((d[i >>> 6] >>> (i & 63) & 1) != 0) {
            for (int w = 0; w < width; w++) {
              sender[column + w] ^= u[column + w];
            }
          }
        }
      }
      peerCommitment = Arrays.copyOfRange(u, KAPPA * words, KAPPA * words + COMMIT_WORDS);
    }

    /**
     * After round 2: checks the peer's opening, seeds χ, sums both directions' rows (see {@link
     * CorrelationCheck}) and returns this party's (x, t) as receiver.
     */
    long[] receiverCheck(long[] opening, long call) {
      long[] expected = new long[COMMIT_WORDS];
      commit(peer, me, call, opening, expected, 0);
      if (!Arrays.equals(expected, peerCommitment)) {
        throw Aborts.abort(channel, peer, "coin-toss commitment check (opening does not match)");
      }
      byte[] seed = challengeSeed(call, opening);
      CorrelationCheck check = new CorrelationCheck(Prg.fromKey(seed, 0));
      Arrays.fill(seed, (byte) 0);
      for (int first = 0; first < words; first += CHUNK_WORDS) {
        check.add(receiver, choiceBits, sender, first, Math.min(CHUNK_WORDS, words - first));
      }
      senderSum = new long[2];
      check.senderResult(senderSum);
      long[] values = new long[4];
      check.receiverResult(values);
      return values;
    }

    /** After round 3 as sender: Σ q_j·χ_j must equal t ⊕ x·Δ. */
    void senderCheck(long[] check) {
      long[] q = senderSum;
      long[] xDelta = new long[2];
      Gf128.multiply(check[0], check[1], delta[peer][0], delta[peer][1], xDelta, 0);
      if ((q[0] ^ check[2] ^ xDelta[0]) != 0 || (q[1] ^ check[3] ^ xDelta[1]) != 0) {
        throw Aborts.abort(
            channel,
            peer,
            "OT extension consistency check: its correction columns do not match one choice"
                + " vector");
      }
    }

    /** The pair's challenge seed: SHA-256 of both shares, the lower-numbered party's first. */
    private byte[] challengeSeed(long call, long[] peerShare) {
      long[] low = me < peer ? share : peerShare;
      long[] high = me < peer ? peerShare : share;
      MessageDigest sha = sha256();
      sha.update(SEED_DOMAIN);
      update(sha, Math.min(me, peer), Math.max(me, peer), call);
      update(sha, low[0], low[1], low[2], low[3]);
      update(sha, high[0], high[1], high[2], high[3]);
      return Arrays.copyOf(sha.digest(), 16);
    }

    /** Transposes and hashes, a chunk at a time: this pair's entries of the batch. */
    void keys(int count, long[][] zero, long[][] one, long[][] received) {
      long[] noMask = new long[2];
      received[peer] = new long[2 * count];
      zero[peer] = new long[2 * count];
      one[peer] = new long[2 * count];
      for (int first = 0; first < words && 64 * first < count; first += CHUNK_WORDS) {
        int width = Math.min(CHUNK_WORDS, words - first);
        int row = 64 * first;
        int n = Math.min(64 * width, count - row);
        BitMatrix.transpose128(receiver, KAPPA * first, width, rows, block);
        hash.hash(rows, noMask, n, tweak(peer, me, row), received[peer], row);
        BitMatrix.transpose128(sender, KAPPA * first, width, rows, block);
        long[] tweak = tweak(me, peer, row);
        hash.hash(rows, noMask, n, tweak, zero[peer], row);
        hash.hash(rows, delta[peer], n, tweak, one[peer], row);
      }
    }
  }

  /** The tweak of row {@code row} of this call from {@code from} to {@code to}. */
  private long[] tweak(int from, int to, int row) {
    return new long[] {rowsDone + row, (long) from << 32 | to};
  }

  /** SHA-256 of the domain, the parties, the call and the share into {@code out[offset, +4)}. */
  private static void commit(int from, int to, long call, long[] share, long[] out, int offset) {
    MessageDigest sha = sha256();
    sha.update(COMMIT_DOMAIN);
    update(sha, from, to, call);
    update(sha, share[0], share[1], share[2], share[3]);
    byte[] digest = sha.digest();
    for (int k = 0; k < 4; k++) {
      long word = 0;
      for (int b = 7; b >= 0; b--) {
        word = word << 8 | (digest[8 * k + b] & 0xFFL);
      }
      out[offset + k] = word;
    }
  }

  private static void update(MessageDigest sha, long... values) {
    byte[] bytes = new byte[8 * values.length];
    for (int v = 0; v < values.length; v++) {
      putLong(bytes, 8 * v, values[v]);
    }
    sha.update(bytes);
  }

  private static void putLong(byte[] bytes, int offset, long value) {
    for (int k = 0; k < 8; k++) {
      bytes[offset + k] = (byte) (value >>> (8 * k));
    }
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
