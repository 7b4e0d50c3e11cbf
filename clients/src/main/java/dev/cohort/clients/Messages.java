package dev.cohort.clients;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The messages between a client and one server, each one frame of the client link. The first byte
 * is the type; numbers are big-endian. Everything a client sends is untrusted: {@link #submit}
 * throws {@link IllegalArgumentException} on any frame that is not exactly a submission.
 */
final class Messages {

  static final byte OPEN = 1;
  static final byte SUBMIT = 2;
  static final byte ACK = 3;
  static final byte OUTCOME = 4;
  static final byte MASK_REQUEST = 5;
  static final byte MASKS = 6;

  /** The longest reason or detail text a message carries, in bytes. */
  private static final int MAX_TEXT = 1024;

  private Messages() {}

  /** Server to client: session {@code session} takes submissions of {@code bits}. */
  record Open(long session, String suite, String field, int parties, int threshold, int[] bits) {}

  /** Client to server: this server's part of a submission to {@code session}. */
  record Submit(long session, boolean wantsAck, int[] bits, long[] words) {}

  /** Server to client: what became of a submission ({@link Status}). */
  record Ack(long session, Status status, String detail) {}

  /**
   * Server to client, after the session: whether the submission counted, and the number of
   * contributors.
   */
  record Outcome(long session, boolean counted, int contributors, String detail) {}

  /**
   * Server to client (SPDZ): this server's shares of the {@code triples} triples masking the
   * client's submission to {@code session}: the shares of a, then of b, then of c.
   */
  record Masks(long session, int triples, long[] words) {}

  /** How a server answers a submission. */
  enum Status {
    RECEIVED("received; it counts if every server received it before the deadline and it is valid"),
    LATE("the session had closed; submit to the next one"),
    NOT_OPEN("no such session is open (a replay of an earlier submission, or one for the future)"),
    DUPLICATE("this client already submitted to this session"),
    MALFORMED("the submission does not have the session's shape"),
    NO_MASKS("no input masks were granted to this client in this session: request them first");

    final String meaning;

    Status(String meaning) {
      this.meaning = meaning;
    }
  }

  static byte[] open(Open o) {
    byte[] suite = text(o.suite());
    byte[] field = text(o.field());
    ByteBuffer b =
        ByteBuffer.allocate(1 + 8 + 4 + suite.length + 4 + field.length + 12 + o.bits().length);
    b.put(OPEN).putLong(o.session());
    b.putInt(suite.length).put(suite).putInt(field.length).put(field);
    b.putInt(o.parties()).putInt(o.threshold()).putInt(o.bits().length);
    for (int bits : o.bits()) {
      b.put((byte) bits);
    }
    return b.array();
  }

  /**
   * A submission; with {@code wantsAck} the server confirms its receipt (it always answers a
   * refusal).
   */
  static byte[] submit(long session, boolean wantsAck, int[] bits, long[] words) {
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 1 + 4 + bits.length + 4 + 8 * words.length);
    b.put(SUBMIT).putLong(session).put((byte) (wantsAck ? 1 : 0)).putInt(bits.length);
    for (int x : bits) {
      b.put((byte) x);
    }
    b.putInt(words.length);
    b.asLongBuffer().put(words);
    return b.array();
  }

  /** Client to server (SPDZ): asks for the input masks of {@code session}. */
  static byte[] maskRequest(long session) {
    return ByteBuffer.allocate(1 + 8).put(MASK_REQUEST).putLong(session).array();
  }

  static byte[] masks(long session, int triples, long[] words) {
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 4 + 8 * words.length);
    b.put(MASKS).putLong(session).putInt(triples).putInt(words.length);
    b.asLongBuffer().put(words);
    return b.array();
  }

  /**
   * Input masks from where a server keeps its triples: {@code triples} elements of {@code words}
   * words each, of each of {@code a}, {@code b} and {@code c}, from element {@code at}.
   */
  static byte[] masks(long session, int triples, int words, long[] a, long[] b, long[] c, int at) {
    int n = triples * words;
    ByteBuffer out = ByteBuffer.allocate(1 + 8 + 4 + 4 + 8 * 3 * n);
    out.put(MASKS).putLong(session).putInt(triples).putInt(3 * n);
    out.asLongBuffer().put(a, at * words, n).put(b, at * words, n).put(c, at * words, n);
    return out.array();
  }

  static byte[] ack(long session, Status status, String detail) {
    byte[] d = text(detail);
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 1 + 4 + d.length);
    b.put(ACK).putLong(session).put((byte) status.ordinal()).putInt(d.length).put(d);
    return b.array();
  }

  static byte[] outcome(Outcome o) {
    byte[] d = text(o.detail());
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 1 + 4 + 4 + d.length);
    b.put(OUTCOME).putLong(o.session()).put((byte) (o.counted() ? 1 : 0));
    b.putInt(o.contributors()).putInt(d.length).put(d);
    return b.array();
  }

  static byte type(byte[] frame) {
    if (frame.length == 0) {
      throw new IllegalArgumentException("an empty message");
    }
    return frame[0];
  }

  /**
   * A submission, checked for form only: at most {@code maxColumns} values and {@code maxWords}
   * words, and nothing left over.
   */
  static Submit submit(byte[] frame, int maxColumns, int maxWords) {
    try {
      ByteBuffer b = body(frame, SUBMIT);
      long session = b.getLong();
      boolean wantsAck = b.get() != 0;
      int columns = b.getInt();
      if (columns < 0 || columns > maxColumns) {
        throw new IllegalArgumentException("a submission of " + columns + " values");
      }
      int[] bits = new int[columns];
      for (int c = 0; c < columns; c++) {
        bits[c] = b.get();
      }
      int count = b.getInt();
      if (count < 0 || count > maxWords || count * 8L != b.remaining()) {
        throw new IllegalArgumentException(
            "a submission announcing " + count + " words in " + b.remaining() + " bytes");
      }
      long[] words = new long[count];
      b.asLongBuffer().get(words);
      return new Submit(session, wantsAck, bits, words);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated submission", e);
    }
  }

  /** The session of a mask request; nothing may follow it. */
  static long maskRequest(byte[] frame) {
    try {
      ByteBuffer b = body(frame, MASK_REQUEST);
      long session = b.getLong();
      if (b.hasRemaining()) {
        throw new IllegalArgumentException("a mask request of " + frame.length + " bytes");
      }
      return session;
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated mask request", e);
    }
  }

  static Masks masks(byte[] frame) {
    try {
      ByteBuffer b = body(frame, MASKS);
      long session = b.getLong();
      int triples = b.getInt();
      int count = b.getInt();
      if (triples < 0 || count < 0 || count * 8L != b.remaining()) {
        throw new IllegalArgumentException(
            "input masks announcing " + count + " words in " + b.remaining() + " bytes");
      }
      long[] words = new long[count];
      b.asLongBuffer().get(words);
      return new Masks(session, triples, words);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated input masks", e);
    }
  }

  static Open open(byte[] frame) {
    try {
      ByteBuffer b = body(frame, OPEN);
      long session = b.getLong();
      String suite = text(b);
      String field = text(b);
      int parties = b.getInt();
      int threshold = b.getInt();
      int columns = b.getInt();
      if (columns < 0 || columns > b.remaining()) {
        throw new IllegalArgumentException("an opening announcing " + columns + " values");
      }
      int[] bits = new int[columns];
      for (int c = 0; c < columns; c++) {
        bits[c] = b.get();
      }
      return new Open(session, suite, field, parties, threshold, bits);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated session opening", e);
    }
  }

  static Ack ack(byte[] frame) {
    try {
      ByteBuffer b = body(frame, ACK);
      long session = b.getLong();
      int status = b.get();
      if (status < 0 || status >= Status.values().length) {
        throw new IllegalArgumentException("an unknown status " + status);
      }
      return new Ack(session, Status.values()[status], text(b));
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated acknowledgement", e);
    }
  }

  static Outcome outcome(byte[] frame) {
    try {
      ByteBuffer b = body(frame, OUTCOME);
      long session = b.getLong();
      boolean counted = b.get() != 0;
      int contributors = b.getInt();
      return new Outcome(session, counted, contributors, text(b));
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated session outcome", e);
    }
  }

  private static ByteBuffer body(byte[] frame, byte type) {
    if (type(frame) != type) {
      throw new IllegalArgumentException(
          "message type " + frame[0] + " where " + type + " was due");
    }
    ByteBuffer b = ByteBuffer.wrap(frame);
    b.get();
    return b;
  }

  private static byte[] text(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return bytes.length <= MAX_TEXT ? bytes : java.util.Arrays.copyOf(bytes, MAX_TEXT);
  }

  private static String text(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || n > MAX_TEXT || n > b.remaining()) {
      throw new IllegalArgumentException("a text of " + n + " bytes");
    }
    byte[] bytes = new byte[n];
    b.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
