package dev.cohort.transport;

/**
 * Recognises a peer that speaks TLS where this party speaks plain TCP, or the reverse (one party
 * started with {@code --insecure-plaintext}, the other without), from the first bytes of a
 * connection, and words the error. Both transports use it, on both sides of a connection.
 *
 * <p>The two protocols differ in their first byte: a TLS record starts with its content type (0x14
 * to 0x17) and the major version 0x03; every Cohort frame that may open a connection (a hello, or
 * an abort of at most {@link WireFormat#MAX_REASON_BYTES}) starts with a length field below 2^24,
 * so with 0x00, followed by the channel {@link WireFormat#HELLO} or {@link WireFormat#ABORT}.
 *
 * <pre>
 *  TLS record:     | 0x14..0x17 | 0x03 | version minor | length (2) | ...
 *  Cohort frame:   | 0x00 0x00 0x00 0x10..  (length) | 0xFF 0xFF 0xFF 0xFF or 0xFE (channel) | ...
 * </pre>
 *
 * <p>Each side answers in the other's protocol, so that the peer learns why at once: a TLS party
 * that reads a plaintext hello answers with a TLS alert ({@link #TLS_ALERT}), which a plaintext
 * party recognises as TLS; a plaintext party that reads a TLS record answers with a plaintext abort
 * frame ({@link #PLAINTEXT_ANSWER}), which a TLS party recognises as a Cohort frame. Only the
 * dialing side may end {@code connect} on a mismatch (with a {@link ProtocolMismatchException}): it
 * reached the address of the peer it dialed. An accepting side cannot tell a misconfigured peer
 * from a stranger writing the same bytes (both are unauthenticated), so it only keeps the reason
 * for the "did not connect" error of the peer the bytes claim to be.
 */
public final class ProtocolMismatch {

  /** Bytes of a connection's start needed to recognise a plaintext frame and a hello's party. */
  public static final int PEEK_BYTES = WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES;

  /**
   * A fatal TLS 1.2+ alert record, unexpected_message (10): what a TLS party answers to a plaintext
   * hello before it closes, so that the plaintext peer reads TLS where it expects a frame.
   */
  private static final byte[] TLS_ALERT = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x0A};

  /** The reason of the abort frame a plaintext party answers a TLS record with. */
  public static final String PLAINTEXT_ANSWER =
      "this party runs --insecure-plaintext (plain TCP), not TLS: give every party the same"
          + " setting";

  private ProtocolMismatch() {}

  /** The alert a TLS party writes, unencrypted, to a peer that opened in plaintext. */
  public static byte[] tlsAlert() {
    return TLS_ALERT.clone();
  }

  /** True when {@code first} (the first byte of a connection) can only start a TLS record. */
  public static boolean isTlsContentType(byte first) {
    return first >= 0x14 && first <= 0x17;
  }

  /** True when a connection's first two bytes are the start of a TLS record. */
  public static boolean isTlsRecord(byte first, byte second) {
    return isTlsContentType(first) && second == 0x03;
  }

  /**
   * True when the first {@code n} bytes of {@code head} (at least 8) are the start of a plaintext
   * Cohort hello or abort: what a TLS party reads from a peer that runs in plaintext.
   */
  public static boolean isPlaintextFrame(byte[] head, int n) {
    if (n < WireFormat.LENGTH_BYTES + 4) {
      return false;
    }
    int length = intAt(head, 0);
    int channel = intAt(head, 4);
    return length >= WireFormat.HEADER_BYTES
        && length <= WireFormat.HEADER_BYTES + WireFormat.MAX_REASON_BYTES
        && (channel == WireFormat.HELLO || channel == WireFormat.ABORT);
  }

  /**
   * The party a plaintext hello in {@code head} claims (its round field), or -1 when the first
   * {@code n} bytes are not the start of a hello.
   */
  public static int claimedParty(byte[] head, int n) {
    if (n < PEEK_BYTES
        || intAt(head, 0) != WireFormat.HELLO_LENGTH
        || intAt(head, 4) != WireFormat.HELLO) {
      return -1;
    }
    return intAt(head, 8);
  }

  /** A dialed peer answered in plaintext: this party, with TLS, cannot talk to it. */
  public static String peerSpeaksPlaintext(String peer) {
    return peer + " " + speaksPlaintext();
  }

  /** A dialed peer answered with TLS: this party, in plaintext, cannot talk to it. */
  public static String peerSpeaksTls(String peer) {
    return peer + " " + speaksTls();
  }

  /** Why a TLS party refuses a connection that opened in plaintext. */
  public static String speaksPlaintext() {
    return "speaks plaintext (--insecure-plaintext) but this party uses TLS: give every party the"
        + " same setting";
  }

  /** Why a plaintext party refuses a connection that opened with TLS. */
  public static String speaksTls() {
    return "speaks TLS but this party runs --insecure-plaintext: give every party the same setting";
  }

  private static int intAt(byte[] b, int at) {
    return (b[at] & 0xff) << 24
        | (b[at + 1] & 0xff) << 16
        | (b[at + 2] & 0xff) << 8
        | (b[at + 3] & 0xff);
  }
}
