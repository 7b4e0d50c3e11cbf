package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.offline.JointId;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code cohort preprocess --party I --parties FILE}: this party's share of the offline phase. It
 * joins the other parties over their TLS mesh (the ports of the parties file, the same certificates
 * as the online phase), agrees with them on the id of this run, makes the material with them
 * ({@link OfflinePhase}) and writes only its own file and use record.
 */
final class OfflineParty {

  private final CommandSpec spec;
  private final PartiesFile file;
  private final int party;
  private final Field field;

  OfflineParty(CommandSpec spec, PartiesFile file, Path path, int party, Field field) {
    if (party < 0 || party >= file.parties()) {
      throw new ParameterException(
          spec.commandLine(),
          "--party " + party + " is not in the parties file (0.." + (file.parties() - 1) + ")");
    }
    if (file.keys() == null) {
      throw new ParameterException(
          spec.commandLine(), "the parties file names no keys directory ('keys DIR')");
    }
    file.checkOwnHost(party, path);
    this.spec = spec;
    this.file = file;
    this.party = party;
    this.field = field;
  }

  /** Makes and writes this party's file; returns the exit code. */
  int run(DealerFiles.Amounts amounts, Path out, long maxBytes, String planned) throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    int n = file.parties();
    TlsIdentity identity = TlsIdentity.load(file.keys(), party);
    TransportNetwork network =
        Transport.NETTY.bind(party, n, file.addresses().get(party), TransportOptions.tls(identity));
    stdout.printf(
        "P%d: offline phase with %d parties over %s, waiting for the others on %s%n",
        party, n, field.name(), file.addresses().get(party));
    stdout.flush();
    long start = System.nanoTime();
    Path written;
    try (Channel channel = network.connect(file.addresses())) {
      long[] id = JointId.agree(channel);
      SpdzPreprocessing material = OfflinePhase.start(field, channel);
      written = DealerFiles.writeParty(out, field, party, n, amounts, material, id, maxBytes);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    stdout.printf(
        Locale.ROOT,
        "P%d: wrote %s (%d bytes) in %.1f s: %d triples, %d random elements, %d random bits, %d"
            + " input masks and %d input bits per party%n",
        party,
        written,
        Files.size(written),
        seconds,
        amounts.triples(),
        amounts.randomElements(),
        amounts.randomBits(),
        amounts.inputMasks(),
        amounts.inputBits());
    if (planned != null) {
      stdout.println(planned);
    }
    stdout.println(
        "made by the parties' offline phase (MASCOT): no process saw another party's material");
    stdout.flush();
    return 0;
  }
}
