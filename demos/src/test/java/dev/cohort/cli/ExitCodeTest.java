package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.api.AbortException;
import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.engine.ConfigurationMismatchException;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.spdz.MaterialException;
import dev.cohort.transport.ProtocolMismatchException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.file.NoSuchFileException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each kind of failure has its own exit code, found through wrappers (a failed party thread). */
class ExitCodeTest {

  private static Throwable inParty(Throwable cause) {
    return new PartyFailedException(PartyId.of(1), cause);
  }

  @Test
  void codes_areDistinct() {
    List<Integer> codes =
        List.of(
            ExitCode.OK,
            ExitCode.INTERNAL,
            ExitCode.CONFIGURATION,
            ExitCode.PEER,
            ExitCode.ABORTED,
            ExitCode.IO,
            ExitCode.MATERIAL,
            ExitCode.INTERRUPTED,
            ExitCode.TERMINATED);
    Set<Integer> distinct = new HashSet<>(codes);
    assertEquals(codes.size(), distinct.size(), codes.toString());
  }

  @Test
  void of_eachKind_throughAPartyFailure() {
    assertEquals(ExitCode.ABORTED, ExitCode.of(inParty(new AbortException("MAC check failed"))));
    assertEquals(ExitCode.PEER, ExitCode.of(inParty(new NetworkException("P2 disconnected"))));
    assertEquals(ExitCode.MATERIAL, ExitCode.of(inParty(new MaterialException("ran out"))));
    assertEquals(
        ExitCode.IO,
        ExitCode.of(new UncheckedIOException("x", new IOException("No space left on device"))));
    assertEquals(
        ExitCode.CONFIGURATION,
        ExitCode.of(new UncheckedIOException("bind", new BindException("Address in use"))));
    assertEquals(
        ExitCode.CONFIGURATION,
        ExitCode.of(new UncheckedIOException("keys", new NoSuchFileException("party-1.pem"))));
    assertEquals(ExitCode.CONFIGURATION, ExitCode.of(new UnknownHostException("nowhere")));
    assertEquals(
        ExitCode.CONFIGURATION,
        ExitCode.of(
            new ConfigurationMismatchException("P2 has --sessions 12, P0 has 10: every party")));
    // A peer speaking the other protocol is a NetworkException, but the setting is at fault.
    assertEquals(
        ExitCode.CONFIGURATION,
        ExitCode.of(inParty(new ProtocolMismatchException("P1 speaks plaintext"))));
    assertEquals(ExitCode.CONFIGURATION, ExitCode.of(new IllegalArgumentException("bad")));
    assertEquals(ExitCode.INTERNAL, ExitCode.of(new NullPointerException()));
    assertEquals(ExitCode.INTERNAL, ExitCode.of(inParty(new IllegalStateException("bug"))));
  }

  @Test
  void of_outermostKnownCauseDecides() {
    // A peer failure whose cause is an I/O error is a peer failure, not a local disk problem.
    assertEquals(
        ExitCode.PEER,
        ExitCode.of(new NetworkException("P2 failed", new IOException("Connection reset"))));
  }
}
