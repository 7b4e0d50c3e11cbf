package dev.cohort.transport;

import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The wire format both transports speak, and every rule that decides a frame is malformed. Every
 * frame is
 *
 * <pre>
 *  +--------------+---------------+-------------+---------------------------+
 *  | length (int) | channel (int) | round (int) | payload                   |
 *  +--------------+---------------+-------------+---------------------------+
 *    big-endian     big-endian      big-endian    DATA: 64-bit words, little-endian
 * </pre>
 *
 * where {@code length} counts the bytes after itself (channel, round and payload). Channel {@link
 * #DATA} carries one round's 64-bit words and {@code round} numbers the rounds from 0 upwards (a
 * round in which the link carries no words may leave its frame out, {@code
 * dev.cohort.net.FramePlan}, so the rounds of a link's frames may skip); {@link #HELLO} opens every
 * connection with the sender's party id in the round field and the {@link #MAGIC} word as payload;
 * {@link #ABORT} carries the round the sender gave up in and a UTF-8 reason (at most {@link
 * #MAX_REASON_BYTES}; receivers cut longer ones); {@link #HEARTBEAT} has no payload (round 0) and
 * only says that the sender is alive. Until its hello has arrived a connection may declare no frame
 * longer than a hello.
 *
 * <p>Byte order: the three header ints and the hello's {@link #MAGIC} word are big-endian, so a
 * hello reads "COHORT03" in a dump; the words of a data frame's payload are little-endian ({@link
 * #WORD_ORDER}), the order of x86-64 and AArch64, so that copying a round's words into and out of a
 * frame is a plain memory copy, not a byte-swapping one. Version 01 ("COHORT01") had big-endian
 * words, and version 02 ("COHORT02") a frame on every link in every round; a party of an earlier
 * version and one of this refuse each other's hello with {@link #NOT_A_HELLO} instead of misreading
 * words or rounds.
 *
 * <p>The encoders live with each transport (Netty's {@code FrameCodec} writes a {@code ByteBuf},
 * the socket transport's {@code FrameEncoder} a byte array); the limits, the header checks, the
 * pre-hello cap, the growth of a large frame's word array, the abort reason's cap and the bulk copy
 * of words in and out ({@link #putWords}, {@link #getWords}) are here, once, so that no transport
 * accepts what another refuses or orders its words otherwise.
 */
public final class WireFormat {

  /** Bytes of the length field. */
  public static final int LENGTH_BYTES = 4;

  /** Bytes of channel and round, counted by the length field. */
  public static final int HEADER_BYTES = 8;

  public static final int DATA = 0;
  public static final int HELLO = -1;
  public static final int ABORT = -2;
  public static final int HEARTBEAT = -3;

  /**
   * "COHORT03": the protocol name and version, as the payload of a hello (big-endian: its bytes on
   * the wire are the ASCII letters in order).
   */
  public static final long MAGIC = 0x434F484F52543033L;

  /** The byte order of a data frame's words on the wire (header fields are big-endian). */
  public static final ByteOrder WORD_ORDER = ByteOrder.LITTLE_ENDIAN;

  /** Longest abort reason sent, in characters. */
  public static final int MAX_REASON_CHARS = 512;

  /**
   * Most bytes of an abort reason sent or kept: a longer reason from a peer is cut here as it
   * arrives, and the rest of it is skipped without being stored.
   */
  public static final int MAX_REASON_BYTES = 1024;

  /** The length field of a hello: the most a connection may declare before its hello arrives. */
  public static final int HELLO_LENGTH = HEADER_BYTES + 8;

  /**
   * Data frames of up to this many words get their whole word array when their header arrives (1
   * MiB: every round of a normal batch). A larger frame's array starts at most this size and grows
   * eightfold as its words arrive ({@link #grownWords}), so a peer that declares a 256 MiB frame
   * and sends a few bytes of it pins under 1 MiB, not 256, and never more than about 8 times what
   * it sent. The price, paid only by frames over 1 MiB, is copying about a seventh of the frame.
   */
  public static final int EAGER_WORDS = 1 << 17;

  /** How much a large frame's word array grows at a time. */
  private static final int GROWTH = 8;

  /** Why a hello is refused when its payload is not the {@link #MAGIC} word. */
  public static final String NOT_A_HELLO =
      "hello is not a Cohort hello (wrong protocol or version)";

  /**
   * Why the first frame of a connection is refused when its length field is the start of a TLS
   * record: the peer speaks TLS and this party plain TCP ({@link ProtocolMismatch}).
   */
  public static final String SPEAKS_TLS = "a TLS record where a frame belongs: the peer speaks TLS";

  private WireFormat() {}

  /**
   * True when the length field of a connection's first frame starts with the bytes {@code first},
   * {@code second} of a TLS record: decoders then refuse it with {@link #SPEAKS_TLS} rather than
   * with the length its bytes would spell. Asked only before the hello, so never on a data frame.
   */
  public static boolean startsWithTls(byte first, byte second) {
    return ProtocolMismatch.isTlsRecord(first, second);
  }

  /**
   * Writes {@code words[from..from + n)} in {@link #WORD_ORDER} from the position of {@code into},
   * a view of the frame's bytes with room for them (whose order this sets; its position stays): one
   * bulk copy, a plain one on a little-endian machine.
   */
  public static void putWords(ByteBuffer into, long[] words, int from, int n) {
    into.order(WORD_ORDER).asLongBuffer().put(words, from, n);
  }

  /**
   * Reads {@code n} words in {@link #WORD_ORDER} from the position of {@code from}, a view of the
   * frame's bytes (whose order this sets; its position stays), into {@code words[at..at + n)}: one
   * bulk copy, a plain one on a little-endian machine.
   */
  public static void getWords(ByteBuffer from, long[] words, int at, int n) {
    from.order(WORD_ORDER).asLongBuffer().get(words, at, n);
  }

  /** The bytes a data frame of {@code words} words takes on the wire. */
  public static long dataFrameBytes(int words) {
    return LENGTH_BYTES + HEADER_BYTES + 8L * words;
  }

  /**
   * Why a frame whose length field (the bytes after it) reads {@code length} is refused before any
   * more of it is read, or null when it may follow. Until the connection's hello has arrived
   * ({@code helloSeen} false) nothing longer than a hello may come: a stranger, or a party that has
   * not said who it is, gets no buffer beyond a hello's. Shared by every decoder of this format.
   */
  public static String lengthError(int length, int maxFrameBytes, boolean helloSeen) {
    if (length < HEADER_BYTES) {
      return "frame length (" + length + ") is shorter than its 8-byte header";
    }
    String over = overLimit(length, maxFrameBytes);
    if (over != null) {
      return over;
    }
    if (!helloSeen && length > HELLO_LENGTH) {
      return "frame of "
          + length
          + " bytes before the hello, which takes "
          + HELLO_LENGTH
          + " bytes: nothing longer may come first";
    }
    return null;
  }

  /**
   * Why a frame that declares {@code length} bytes is refused under the limit {@code
   * maxFrameBytes}, or null when it is within: the one wording of the limit, for the mesh's
   * decoders and the client link's.
   */
  public static String overLimit(long length, int maxFrameBytes) {
    return length > maxFrameBytes
        ? "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes + " bytes"
        : null;
  }

  /** The words a data frame of {@code total} words is given when its header arrives. */
  public static int initialWords(int total) {
    int size = total;
    while (size > EAGER_WORDS) {
      size = ceilDiv(size, GROWTH);
    }
    return size;
  }

  /**
   * The new size of a data frame's word array that must hold {@code needed} of the frame's {@code
   * total} words: the smallest of total, total / 8, total / 64, ... (rounded up) that holds them.
   * The sizes count down from the total so that the last step lands on it exactly: a frame's words
   * are copied about 1/7 of a time on top of the one copy in, whatever its size. Shared by every
   * decoder of this format, so an array grows only with words received, to at most 8 times them.
   */
  public static int grownWords(int needed, int total) {
    int size = total;
    while (size > 1 && ceilDiv(size, GROWTH) >= needed) {
      size = ceilDiv(size, GROWTH);
    }
    return size;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /**
   * The UTF-8 bytes of an abort reason as sent: at most {@link #MAX_REASON_CHARS} characters and
   * {@link #MAX_REASON_BYTES} bytes, cut at a character boundary, so a peer never has to cut it.
   */
  public static byte[] reasonBytes(String reason) {
    String text =
        reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) : reason;
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= MAX_REASON_BYTES) {
      return bytes;
    }
    int end = MAX_REASON_BYTES;
    while ((bytes[end] & 0xC0) == 0x80) { // a continuation byte: back up to the character's start
      end--;
    }
    return Arrays.copyOf(bytes, end);
  }

  /**
   * The abort reason read from a peer: the first {@code kept} bytes of a reason that had {@code
   * total}, with a note when the rest was dropped.
   */
  public static String reason(byte[] bytes, int kept, int total) {
    String text = new String(bytes, 0, kept, StandardCharsets.UTF_8);
    return kept == total ? text : text + "... (reason cut from " + total + " bytes)";
  }

  /**
   * Checks one round's outgoing frames before any leaves, so that a round goes out whole or not at
   * all: one entry per party in {@code outgoing} and {@code lengths}, each peer's length within the
   * words given (or {@link Channel#NO_FRAME}), and each frame within {@code maxFrameBytes} (the
   * same limit the peers' decoders enforce). Both transports call it, with the same messages.
   */
  public static void checkRound(
      long[][] outgoing, int[] lengths, int parties, int self, int maxFrameBytes) {
    if (outgoing.length != parties || lengths.length != parties) {
      throw new IllegalArgumentException(
          "outgoing ("
              + outgoing.length
              + ") and lengths ("
              + lengths.length
              + ") must have one entry per party ("
              + parties
              + ")");
    }
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      int available = outgoing[p] == null ? 0 : outgoing[p].length;
      int length = lengths[p];
      if (length == Channel.NO_FRAME) {
        continue;
      }
      if (length < 0 || length > available) {
        throw new IllegalArgumentException(
            "length for "
                + PartyId.of(p)
                + " ("
                + length
                + ") must be in [0, "
                + available
                + "], the words given, or Channel.NO_FRAME");
      }
      long bytes = dataFrameBytes(length) - LENGTH_BYTES;
      if (bytes > maxFrameBytes) {
        throw new IllegalStateException(
            "frame of "
                + bytes
                + " bytes for "
                + PartyId.of(p)
                + " exceeds the limit of "
                + maxFrameBytes
                + " bytes: raise maxFrameBytes or lower the engine's batch size");
      }
    }
  }

  /**
   * Why a frame with this header and {@code payload} bytes after it is refused, or null when it is
   * well formed; {@code nextRound} is the first data round that may come (rounds go forward; a
   * round in which this party expects no frame from the peer has none). Shared by every decoder of
   * this format.
   */
  public static String headerError(int channel, int round, int payload, int nextRound) {
    switch (channel) {
      case DATA -> {
        if (payload % 8 != 0) {
          return "data frame payload of " + payload + " bytes is not a whole number of words";
        }
        if (round < nextRound) {
          return "frame for round "
              + round
              + " arrived when round "
              + nextRound
              + " or later was due";
        }
        return null;
      }
      case HELLO -> {
        return payload == 8 ? null : NOT_A_HELLO;
      }
      case HEARTBEAT -> {
        return payload == 0 ? null : "heartbeat with a payload of " + payload + " bytes";
      }
      case ABORT -> {
        return null;
      }
      default -> {
        return "frame on unknown channel " + channel;
      }
    }
  }
}
