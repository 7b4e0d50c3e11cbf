package dev.cohort.cli;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.cohort.clients.Client;
import dev.cohort.clients.Shape;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort bench load}: a load generator for a deployment of {@code cohort server}s. It keeps
 * N input clients connected from one process, each with its own certificate and connections, and
 * has all of them send to session after session: what a server's memory, threads and session time
 * look like with that many devices at once.
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Load-tests the servers of a parties file ('cohort server'): connects N input clients"
          + " (ids J..J+N-1, each with its own key from the parties file's keys directory and a"
          + " TLS 1.3 connection to every server, all on one shared set of event-loop threads),"
          + " keeps them connected, and in each of S sessions has every client send one random"
          + " value without waiting for the servers' confirmations. A few sampled clients wait"
          + " for the session's outcome. Prints, per session, the time from the first send to the"
          + " outcome, the number of contributors and the sum of the values this process sent"
          + " (what the servers' sums of the session must be when every client counted and no"
          + " other process sent); exit code 7 when a sampled client's value was not counted.",
      "",
      "Start the servers with --close-after N (and a --deadline-ms longer than the clients take"
          + " to connect and send), so that a session closes once every client has sent; the"
          + " servers' --bits must allow values of --value-bits. Keys: 'cohort keys --clients M"
          + " --out DIR' with M >= J + N (--clients alone adds client keys to a directory that"
          + " holds the CA's key). With --hold-ms, the clients stay connected after the last"
          + " session, for a look at the servers (their --metrics-port shows heap and threads).",
      ""
    })
final class BenchLoad implements Callable<Integer> {

  /** Files beside the sockets: key files being read, the JVM's own, the event loops' selectors. */
  static final int SPARE_FILES = 64;

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "FILE",
      required = true,
      description = "The parties file: 'ID HOST PORT CLIENT_PORT' lines and 'keys DIR'.")
  Path partiesFile;

  @Option(
      names = "--clients",
      paramLabel = "N",
      required = true,
      description = "Clients to connect and keep connected.")
  int clients;

  @Option(
      names = "--first-id",
      paramLabel = "J",
      defaultValue = "0",
      description = "The first client's id; the clients are J..J+N-1 (default: ${DEFAULT-VALUE}).")
  int firstId;

  @Option(
      names = "--sessions",
      paramLabel = "S",
      defaultValue = "3",
      description =
          "Sessions every client sends a value to; 0: only connect (default: ${DEFAULT-VALUE}).")
  int sessions;

  @Option(
      names = "--value-bits",
      paramLabel = "B",
      defaultValue = "16",
      description =
          "Values are uniformly random in [-2^(B-1), 2^(B-1)); the servers' --bits must be at"
              + " least B (default: ${DEFAULT-VALUE}).")
  int valueBits;

  @Option(
      names = "--sample",
      paramLabel = "K",
      defaultValue = "10",
      description =
          "Clients, spread over the ids, that wait for each session's outcome; 0: all of them"
              + " (default: ${DEFAULT-VALUE}).")
  int sample;

  @Option(
      names = "--connecting",
      paramLabel = "C",
      defaultValue = "50",
      description =
          "Clients whose connections (TCP and TLS handshakes) are under way at once"
              + " (default: ${DEFAULT-VALUE}).")
  int connecting;

  @Option(
      names = "--threads",
      paramLabel = "T",
      description = "Event-loop threads all the clients share (default: one per core).")
  Integer threads;

  @Option(
      names = "--timeout-ms",
      paramLabel = "MS",
      defaultValue = "120000",
      description =
          "How long a client waits for a server at most: a session to open, an outcome"
              + " (default: ${DEFAULT-VALUE}).")
  long timeoutMs;

  @Option(
      names = "--hold-ms",
      paramLabel = "MS",
      defaultValue = "0",
      description =
          "Keep the clients connected this long after the last session (default:"
              + " ${DEFAULT-VALUE}).")
  long holdMs;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() throws InterruptedException {
    check();
    PartiesFile file = PartiesFile.read(partiesFile);
    List<InetSocketAddress> servers = new ArrayList<>();
    for (int i = 0; i < file.parties(); i++) {
      servers.add(file.clientAddress(i, partiesFile));
    }
    checkFileDescriptors(servers.size());
    Path keys = keys(file);
    PrintWriter out = spec.commandLine().getOut();
    int loops = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    out.printf(
        "connecting %d clients (ids %d..%d) to %d servers, %d at a time, on %d event-loop"
            + " threads%n",
        clients, firstId, firstId + clients - 1, servers.size(), connecting, loops);
    out.flush();
    long t0 = System.nanoTime();
    int tenth = Math.max(1, clients / 10);
    LoadCrowd.Settings settings =
        new LoadCrowd.Settings(
            servers, keys, firstId, clients, connecting, loops, Duration.ofMillis(timeoutMs));
    int code = ExitCode.OK;
    try (LoadCrowd crowd =
        LoadCrowd.connect(
            settings,
            connected -> {
              if (clients >= 1000 && connected % tenth == 0 && connected < clients) {
                out.printf("  %d connected%n", connected);
                out.flush();
              }
            })) {
      out.printf(
          Locale.ROOT,
          "connected %d clients (%d TLS connections) in %.1f s%s%n",
          clients,
          clients * servers.size(),
          (System.nanoTime() - t0) / 1e9,
          crowd.retried() == 0 ? "" : " (" + crowd.retried() + " tried again)");
      out.flush();
      SplittableRandom random = new SplittableRandom();
      int[] sampled = sampled();
      for (int s = 0; s < sessions; s++) {
        if (!session(out, crowd, sampled, random)) {
          code = ExitCode.NOT_COUNTED;
        }
      }
      if (holdMs > 0) {
        out.printf(Locale.ROOT, "holding %d clients connected for %.1f s%n", clients, holdMs / 1e3);
        out.flush();
        Thread.sleep(holdMs);
      }
    }
    out.printf("disconnected %d clients%n", clients);
    out.flush();
    return code;
  }

  /** One session: every client sends, the sampled ones wait; false when one was not counted. */
  private boolean session(
      PrintWriter out, LoadCrowd crowd, int[] sampled, SplittableRandom random) {
    long[][] values = new long[crowd.size()][];
    long half = 1L << (valueBits - 1);
    long sum = 0;
    for (int k = 0; k < values.length; k++) {
      values[k] = new long[] {random.nextLong(-half, half)};
      sum += values[k][0];
    }
    long t0 = System.nanoTime();
    long[] sessionOf = crowd.sendAll(values);
    long t1 = System.nanoTime();
    Client.Counted[] outcomes = crowd.awaitOutcomes(sampled, sessionOf);
    long t2 = System.nanoTime();
    long low = Long.MAX_VALUE;
    long high = Long.MIN_VALUE;
    for (long s : sessionOf) {
      low = Math.min(low, s);
      high = Math.max(high, s);
    }
    int counted = 0;
    int contributors = 0;
    String notCounted = null;
    for (int k = 0; k < outcomes.length; k++) {
      Client.Counted c = outcomes[k];
      contributors = Math.max(contributors, c.contributors());
      if (c.counted()) {
        counted++;
      } else if (notCounted == null) {
        notCounted = "; client " + crowd.id(sampled[k]) + ": " + c.detail();
      }
    }
    out.printf(
        Locale.ROOT,
        "session %s: %d contributors; %d clients sent in %.2f s, outcome after %.2f s;"
            + " %d of %d sampled clients counted%s; the values sent sum to %d%n",
        low == high ? Long.toString(low) : low + ".." + high,
        contributors,
        values.length,
        (t1 - t0) / 1e9,
        (t2 - t0) / 1e9,
        counted,
        outcomes.length,
        notCounted == null ? "" : notCounted,
        sum);
    out.flush();
    return notCounted == null;
  }

  /** The indexes of the sampled clients, spread evenly over the crowd. */
  private int[] sampled() {
    int k = sample == 0 || sample > clients ? clients : sample;
    int[] out = new int[k];
    for (int i = 0; i < k; i++) {
      out[i] = (int) ((long) i * clients / k);
    }
    return out;
  }

  private void check() {
    if (clients < 1 || firstId < 0 || (long) firstId + clients > Integer.MAX_VALUE) {
      throw usage(
          "--clients ("
              + clients
              + ") must be >= 1 and --first-id ("
              + firstId
              + ") >= 0, with ids below 2^31");
    }
    if (sessions < 0 || sample < 0 || connecting < 1 || holdMs < 0 || timeoutMs < 1) {
      throw usage(
          "--sessions, --sample and --hold-ms must be >= 0, --connecting and --timeout-ms >= 1");
    }
    if (valueBits < 1 || valueBits > Shape.MAX_BITS) {
      throw usage("--value-bits (" + valueBits + ") must be between 1 and " + Shape.MAX_BITS);
    }
    if (threads != null && threads < 1) {
      throw usage("--threads (" + threads + ") must be >= 1");
    }
  }

  /**
   * Refuses to start when this process may not open a socket per client and server (the limit of
   * open files, {@code ulimit -n}): it would fail thousands of connections in.
   */
  private void checkFileDescriptors(int servers) {
    if (!(ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os)) {
      return;
    }
    long needed = (long) clients * servers + os.getOpenFileDescriptorCount() + SPARE_FILES;
    long limit = os.getMaxFileDescriptorCount();
    if (needed > limit) {
      throw usage(
          clients
              + " clients need "
              + (long) clients * servers
              + " connections, but this process may open only "
              + limit
              + " files (ulimit -n): raise the limit, or split the clients over several"
              + " processes with --first-id");
    }
  }

  /** The keys directory, checked to hold the last client's key. */
  private Path keys(PartiesFile file) {
    if (file.keys() == null) {
      throw usage("the parties file names no keys directory ('keys DIR')");
    }
    int last = firstId + clients - 1;
    if (!Files.exists(file.keys().resolve("client-" + last + "-key.pem"))) {
      throw usage(
          "the keys directory "
              + file.keys()
              + " has no key for client "
              + last
              + ": add client keys with 'cohort keys --clients "
              + (last + 1)
              + " --out "
              + file.keys()
              + "'");
    }
    return file.keys();
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
