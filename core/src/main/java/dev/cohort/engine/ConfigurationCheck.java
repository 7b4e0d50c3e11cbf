package dev.cohort.engine;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Compares the parties' configurations in the suite's set-up round, at no extra round: each party
 * sends a SHA-256 digest of its suite, field, number of parties and batch size. Parties that
 * disagree would otherwise fail later with a message about short frames or a failed check; this
 * says what is wrong.
 */
final class ConfigurationCheck implements RoundProtocol {

  private static final int WORDS = 4;

  private final int self;
  private final int parties;
  private final String description;
  private final long[] digest;

  ConfigurationCheck(int self, int parties, String description) {
    this.self = self;
    this.parties = parties;
    this.description = description;
    this.digest = digest(description);
  }

  private static long[] digest(String description) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(description.getBytes(StandardCharsets.UTF_8));
      long[] words = new long[WORDS];
      for (int i = 0; i < 32; i++) {
        words[i / 8] |= (hash[i] & 0xffL) << (8 * (i % 8));
      }
      return words;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  @Override
  public void send(int round, Outbox out) {
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        out.write(p, digest, 0, WORDS);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] theirs = new long[WORDS];
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        in.read(p, theirs, 0, WORDS);
        if (!Arrays.equals(theirs, digest)) {
          throw new AbortException(
              PartyId.of(p)
                  + " runs another configuration than "
                  + PartyId.of(self)
                  + " ("
                  + description
                  + "): every party must use the same suite, field, number of parties and"
                  + " batch size");
        }
      }
    }
    return true;
  }
}
