package dev.cohort.engine;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares the parties' configurations in the suite's set-up round, at no extra round: each party
 * sends its settings (suite, field, number of parties, batch size, and those the application
 * declared in {@link EngineConfig#agreed()}) as UTF-8 lines {@code name=value}, at most {@value
 * #MAX_BYTES} bytes, length first. Parties that disagree would otherwise fail later with a message
 * about short frames or a failed check, or, worse, compute something else; this names every setting
 * that differs with both values ("P2 has --sessions 1200, P0 has 1000"), on every party.
 */
final class ConfigurationCheck implements RoundProtocol {

  /** The longest description sent; a longer one is cut (and compared as cut). */
  static final int MAX_BYTES = 4096;

  private final int self;
  private final int parties;
  private final SortedMap<String, String> settings;
  private final long[] message;

  ConfigurationCheck(int self, int parties, SortedMap<String, String> settings) {
    this.self = self;
    this.parties = parties;
    this.settings = settings;
    StringBuilder text = new StringBuilder();
    settings.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      bytes = Arrays.copyOf(bytes, MAX_BYTES);
    }
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
                + " bytes: it runs another protocol version, or misbehaves");
      }
      long[] theirs = new long[1 + words((int) length[0])];
      theirs[0] = length[0];
      in.read(p, theirs, 1, theirs.length - 1);
      if (!Arrays.equals(theirs, message)) {
        byte[] bytes = new byte[(int) length[0]];
        for (int i = 0; i < bytes.length; i++) {
          bytes[i] = (byte) (theirs[1 + i / 8] >>> (8 * (i % 8)));
        }
        throw new ConfigurationMismatchException(
            differences(PartyId.of(p), parse(new String(bytes, StandardCharsets.UTF_8)))
                + ": every party must be started with the same settings");
      }
    }
    return true;
  }

  private static SortedMap<String, String> parse(String text) {
    SortedMap<String, String> map = new TreeMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        map.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return map;
  }

  /** "P2 has --sessions 1200, P0 has 1000; P2 has field m61, P0 has m127". */
  private String differences(PartyId peer, SortedMap<String, String> theirs) {
    TreeSet<String> names = new TreeSet<>(settings.keySet());
    names.addAll(theirs.keySet());
    StringBuilder out = new StringBuilder();
    for (String name : names) {
      String a = theirs.get(name);
      String b = settings.get(name);
      if (Objects.equals(a, b)) {
        continue;
      }
      if (out.length() > 0) {
        out.append("; ");
      }
      out.append(peer)
          .append(a == null ? " has no " + name : " has " + name + " " + a)
          .append(", ")
          .append(PartyId.of(self))
          .append(b == null ? " has none" : " has " + b);
    }
    return out.length() == 0 ? peer + " sent a configuration that does not parse" : out.toString();
  }
}
