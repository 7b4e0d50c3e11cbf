package dev.cohort.engine;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Compares the parties' configurations in the suite's set-up round, at no extra round: each party
 * sends the description of its suite, field, number of parties and batch size (UTF-8, at most
 * {@value #MAX_BYTES} bytes, length first). Parties that disagree would otherwise fail later with a
 * message about short frames or a failed check; this names both configurations, the peer's and this
 * party's.
 */
final class ConfigurationCheck implements RoundProtocol {

  /** The longest description sent; a longer one is cut (and compared as cut). */
  static final int MAX_BYTES = 1024;

  private final int self;
  private final int parties;
  private final String description;
  private final long[] message;

  ConfigurationCheck(int self, int parties, String description) {
    this.self = self;
    this.parties = parties;
    byte[] bytes = description.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      bytes = Arrays.copyOf(bytes, MAX_BYTES);
    }
    this.description = new String(bytes, StandardCharsets.UTF_8);
    this.message = new long[1 + words(bytes.length)];
    message[0] = bytes.length;
    for (int i = 0; i < bytes.length; i++) {
      message[1 + i / 8] |= (bytes[i] & 0xffL) << (8 * (i % 8));
    }
  }

  private static int words(int bytes) {
    return (bytes + 7) / 8;
  }

  @Override
  public void send(int round, Outbox out) {
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        out.write(p, message, 0, message.length);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] length = new long[1];
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      in.read(p, length, 0, 1);
      if (length[0] < 0 || length[0] > MAX_BYTES) {
        throw new AbortException(
            PartyId.of(p)
                + " sent a configuration of "
                + length[0]
                + " bytes: it runs another"
                + " protocol version, or misbehaves");
      }
      long[] theirs = new long[1 + words((int) length[0])];
      theirs[0] = length[0];
      in.read(p, theirs, 1, theirs.length - 1);
      if (!Arrays.equals(theirs, message)) {
        byte[] bytes = new byte[(int) length[0]];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) (theirs[1 + i / 8] >>> (8 * (i % 8)));
        }
        throw new AbortException(
            PartyId.of(p)
                + " runs "
                + new String(bytes, StandardCharsets.UTF_8)
                + ", "
                + PartyId.of(self)
                + " "
                + description
                + ": every party must use the same suite, field, number of parties and"
                + " batch size");
      }
    }
    return true;
  }
}
