package dev.cohort.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A {@link Prg} that outputs the AES-128 keystream in counter mode: block {@code i} of stream
 * {@code s} is {@code AES_k(s || i)}, with {@code s} and {@code i} as big-endian 64-bit halves of
 * the 128-bit counter block.
 *
 * <p>Invariant: {@code buffer[position, CHUNK)} holds keystream bytes not yet handed out, in
 * keystream order, and {@code position} is a multiple of 8. Words are read little-endian from the
 * buffer, so {@link #fill} and repeated {@link #nextLong} return the same sequence; {@link
 * #nextBytes} consumes whole words and drops the unused bytes of the last one.
 *
 * <p>Keystream is produced a chunk at a time (one {@code Cipher.update} per 4 KiB) so that the
 * JDK's AES-CTR intrinsic does the work and bulk {@link #fill} costs about a byte copy per word.
 * The block counter occupies the low 64 bits of the counter block; it would only carry into the
 * stream half after 2^68 bytes, far beyond any computation.
 *
 * <p>Not thread-safe: give each thread its own generator (for instance one stream per thread).
 */
public final class AesCtrPrg implements Prg {

  private static final int KEY_BYTES = 16;

  /** Keystream bytes produced per cipher call; a multiple of the AES block size. */
  private static final int CHUNK = 4096;

  /** Encrypting zeros yields the raw keystream. Read-only, so one copy serves every instance. */
  private static final byte[] ZEROS = new byte[CHUNK];

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Cipher cipher;
  private final byte[] buffer = new byte[CHUNK];
  private final LongBuffer words =
      ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
  private int position = CHUNK; // empty: the first read refills
  private SecretKeySpec key; // kept for copyAt
  private long stream;
  private long chunks; // chunks of keystream produced since the key (or the last seek)
  private long base; // the word at which the first of those chunks starts

  /**
   * A generator for one stream under a 16-byte key. The key is copied; the caller may wipe its
   * array afterwards.
   *
   * @throws IllegalArgumentException if {@code key} is not 16 bytes long
   */
  public AesCtrPrg(byte[] key, long stream) {
    try {
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      // Every Java platform must provide AES/CTR/NoPadding, so this is a broken JDK.
      throw new IllegalStateException("AES/CTR/NoPadding is not available", e);
    }
    rekey(key, stream);
  }

  /**
   * Makes this generator the one {@code new AesCtrPrg(key, stream)} would be, reusing its cipher:
   * looking up a cipher costs tens of microseconds, so a protocol that keys a fresh generator per
   * round (a MAC check's coefficients) keeps one and rekeys it. The key is copied.
   *
   * @throws IllegalArgumentException if {@code key} is not 16 bytes long
   */
  public void rekey(byte[] key, long stream) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "PRG key must be " + KEY_BYTES + " bytes, got " + key.length);
    }
    this.key = new SecretKeySpec(key, "AES"); // copies the key bytes
    this.stream = stream;
    start(0);
  }

  /** Starts the keystream at block {@code block} of the stream; nothing buffered is handed out. */
  private void start(long block) {
    byte[] counter = new byte[16];
    for (int i = 0; i < 8; i++) {
      counter[i] = (byte) (stream >>> (56 - 8 * i)); // high half, big-endian like the counter
      counter[8 + i] = (byte) (block >>> (56 - 8 * i));
    }
    try {
      cipher.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(counter));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR/NoPadding rejected a 16-byte key", e);
    }
    base = block * (16 / Long.BYTES);
    chunks = 0;
    position = CHUNK; // nothing of the old keystream is handed out
  }

  /**
   * The number of words handed out so far ({@link #nextBytes} counts whole words): the position in
   * the stream of the next word, which {@link #seek} and {@link #copyAt} take.
   */
  public long position() {
    return base + chunks * (CHUNK / Long.BYTES) - (CHUNK - position) / Long.BYTES;
  }

  /**
   * Moves to word {@code word} of this generator's stream: the next word is the one a fresh
   * generator of the same key and stream returns after {@code word} words. Lets a kernel split over
   * threads draw each range of a long expansion from its own copy, bit for bit as one generator
   * would.
   */
  public void seek(long word) {
    if (word < 0) {
      throw new IllegalArgumentException("PRG position (" + word + ") must be >= 0");
    }
    long perChunk = CHUNK / Long.BYTES;
    start(word / perChunk * (CHUNK / 16));
    refill();
    position = (int) (word % perChunk) * Long.BYTES;
  }

  /** A new generator on this one's key and stream, at word {@code word} (see {@link #seek}). */
  public AesCtrPrg copyAt(long word) {
    AesCtrPrg copy = new AesCtrPrg(this);
    copy.seek(word);
    return copy;
  }

  /**
   * Makes this generator {@code source}'s key and stream at word {@code word}, reusing its own
   * cipher (a copy kept per thread follows a new source without looking up a cipher).
   */
  public void follow(AesCtrPrg source, long word) {
    this.key = source.key;
    this.stream = source.stream;
    seek(word);
  }

  private AesCtrPrg(AesCtrPrg source) {
    try {
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR/NoPadding is not available", e);
    }
    this.key = source.key;
    this.stream = source.stream;
  }

  /** A generator keyed from a fresh {@link SecureRandom}. */
  public static AesCtrPrg secure() {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    AesCtrPrg prg = new AesCtrPrg(key, 0);
    Arrays.fill(key, (byte) 0);
    return prg;
  }

  /**
   * A deterministic generator whose key is the first 16 bytes of SHA-256 of the seed (8 bytes,
   * little-endian). For tests and benchmarks only: a 64-bit seed is guessable.
   */
  public static AesCtrPrg seeded(long seed) {
    byte[] seedBytes = new byte[8];
    LONG_LE.set(seedBytes, 0, seed);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seedBytes);
      return new AesCtrPrg(Arrays.copyOf(digest, KEY_BYTES), 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  @Override
  public long nextLong() {
    if (position == CHUNK) {
      refill();
    }
    long word = (long) LONG_LE.get(buffer, position);
    position += Long.BYTES;
    return word;
  }

  @Override
  public void fill(long[] out, int off, int n) {
    Objects.checkFromIndexSize(off, n, out.length);
    int i = off;
    int end = off + n;
    while (i < end) {
      if (position == CHUNK) {
        refill();
      }
      int take = Math.min(end - i, (CHUNK - position) / Long.BYTES);
      words.get(position / Long.BYTES, out, i, take); // bulk little-endian copy
      position += take * Long.BYTES;
      i += take;
    }
  }

  @Override
  public void nextBytes(byte[] out) {
    int done = 0;
    while (done < out.length) {
      if (position == CHUNK) {
        refill();
      }
      int take = Math.min(out.length - done, CHUNK - position);
      System.arraycopy(buffer, position, out, done, take);
      done += take;
      // Round up to a word boundary so that word reads stay aligned with the keystream.
      position += (take + Long.BYTES - 1) & -Long.BYTES;
    }
  }

  /** Replaces the buffer with the next chunk of keystream; unread tail bytes are dropped. */
  private void refill() {
    try {
      int produced = cipher.update(ZEROS, 0, CHUNK, buffer, 0);
      if (produced != CHUNK) {
        throw new IllegalStateException("AES-CTR produced " + produced + " of " + CHUNK + " bytes");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR keystream generation failed", e);
    }
    chunks++;
    position = 0;
  }
}
