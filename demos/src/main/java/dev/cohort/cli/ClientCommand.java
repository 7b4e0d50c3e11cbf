package dev.cohort.cli;

import dev.cohort.api.NetworkException;
import dev.cohort.clientlink.ClientLink;
import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clients.Client;
import dev.cohort.clients.TlsClients;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort client}: one input client (a device). It connects to every server of the parties
 * file with its client certificate, secret-shares its values to the next session, and reports
 * whether the session counted them.
 */
@Command(
    name = "client",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Submits values as input client J to the servers of the parties file ('cohort server'):"
          + " each server receives only its secret share of each value, so no server alone"
          + " learns it. The values come from --value (one submission), from standard input (one"
          + " submission per line, values separated by commas, each to the next session) or from"
          + " a traces CSV (device J's distance of every session). Exit code 0 when every"
          + " submission counted, 7 when one was refused or left out.",
      ""
    })
final class ClientCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "FILE",
      required = true,
      description = "The parties file; its keys directory holds client-J.pem and client-J-key.pem.")
  Path partiesFile;

  @Option(
      names = "--id",
      paramLabel = "J",
      required = true,
      description = "This client's id (its certificate's, from 'cohort keys --clients').")
  int id;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  /** Where the values come from. */
  static final class Source {
    @Option(
        names = "--value",
        paramLabel = "V",
        split = ",",
        description = "The values of one submission, one per declared value.")
    long[] values;

    @Option(names = "--stdin", description = "Read submissions from standard input.")
    boolean stdin;

    @Option(
        names = "--traces",
        paramLabel = "CSV",
        description = "Submit device J's distance in metres of each session of this traces CSV.")
    Path traces;
  }

  @Option(
      names = "--timeout-ms",
      paramLabel = "MS",
      defaultValue = "60000",
      description = "How long to wait for a server at most (default: ${DEFAULT-VALUE}).")
  long timeoutMs;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() {
    PartiesFile file = PartiesFile.read(partiesFile);
    if (file.keys() == null) {
      throw new ParameterException(
          spec.commandLine(), "the parties file names no keys directory ('keys DIR')");
    }
    TlsIdentity identity = TlsIdentity.loadClient(file.keys(), id);
    List<InetSocketAddress> servers = new ArrayList<>();
    for (int i = 0; i < file.parties(); i++) {
      servers.add(file.clientAddress(i, partiesFile));
    }
    List<long[]> submissions = submissions();
    PrintWriter out = spec.commandLine().getOut();
    Duration timeout = Duration.ofMillis(timeoutMs);
    int code = 0;
    try (ClientLink link = connect(servers, identity, timeout);
        Client client = Client.over(TlsClients.over(link), timeout)) {
      for (long[] values : submissions) {
        Client.Receipt r = client.submit(values);
        if (!r.received()) {
          out.printf(
              "client %d: session %d: refused: %s%n",
              id, r.session(), Arrays.toString(r.details()));
          out.flush();
          code = ExitCode.NOT_COUNTED;
          continue;
        }
        Client.Counted c = client.awaitOutcome(r);
        out.printf(
            "client %d: session %d: %s (%d contributors)%n",
            id, c.session(), c.detail(), c.contributors());
        out.flush();
        if (!c.counted()) {
          code = ExitCode.NOT_COUNTED;
        }
      }
    }
    return code;
  }

  /**
   * Connects to every server, trying again (every 0.2 s, up to 2 s apart) while a server is not up
   * yet, until {@code timeout}: a device outlives a server's restart.
   */
  private static ClientLink connect(
      List<InetSocketAddress> servers, TlsIdentity identity, Duration timeout) {
    long until = System.nanoTime() + timeout.toNanos();
    long pause = 200;
    while (true) {
      try {
        return ClientLink.connect(servers, identity, ClientLinkOptions.defaults(), null);
      } catch (NetworkException e) {
        if (System.nanoTime() + pause * 1_000_000 > until) {
          throw e;
        }
        try {
          Thread.sleep(pause);
        } catch (InterruptedException i) {
          Thread.currentThread().interrupt();
          throw e;
        }
        pause = Math.min(2 * pause, 2000);
      }
    }
  }

  private List<long[]> submissions() {
    List<long[]> out = new ArrayList<>();
    if (source.values != null) {
      out.add(source.values);
    } else if (source.traces != null) {
      Traces traces = Traces.read(source.traces);
      if (id < 0 || id >= traces.devices()) {
        throw new ParameterException(
            spec.commandLine(),
            "client " + id + " has no device in " + source.traces + " (" + traces.devices() + ")");
      }
      for (int s = 1; s <= traces.sessions(); s++) {
        out.add(new long[] {traces.distance(id, s)});
      }
    } else {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      try {
        int number = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          number++;
          if (line.isBlank()) {
            continue;
          }
          String[] parts = line.strip().split("\\s*,\\s*");
          long[] values = new long[parts.length];
          for (int k = 0; k < parts.length; k++) {
            try {
              values[k] = Long.parseLong(parts[k]);
            } catch (NumberFormatException e) {
              throw new ParameterException(
                  spec.commandLine(), "standard input, line " + number + ": not an integer");
            }
          }
          out.add(values);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read standard input", e);
      }
    }
    return out;
  }
}
