package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.SpdzConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Submissions per second of input clients over BGW and over SPDZ, in the same JVM, alternated: 3
 * servers as threads over the in-memory mesh, {@code N} clients (default 1000) in memory on {@code
 * T} threads (default 16), each submitting two values of 4 and 32 bits in each of {@code S}
 * sessions (default 3). The time runs from the first submission until every server finished the
 * last session (its sums computed and opened); the CPU time is the whole process's (servers and
 * clients) over the same span, per submission, which other load on the machine disturbs less than
 * the wall time.
 *
 * <p>SPDZ runs twice: with the seeded in-process dealer, which deals every triple inside the run
 * (its AES keystream for three parties' shares is then a large part of the cost), and with dealer
 * files dealt before the run (the deployment's configuration: the servers read the triples and
 * record their use on disk). A measurement printed for a person, not a test. Run with {@code java
 * -cp ... dev.cohort.clients.ClientsThroughputMain [N] [S] [rounds] [fields] [T]}.
 *
 * <p>Measured (2 cores shared with other jobs, load 8 to 10, so the wall times scatter; 5 sessions
 * and 7 runs, two invocations): CPU per submission BGW 26–38 us, SPDZ 2.0–2.5 times that
 * (in-process dealer 2.2–2.5, dealer files 2.0–2.3); wall-clock BGW 23 000–54 000 submissions/s,
 * SPDZ 10 000–21 000, 1.7–3.5 times fewer (2.2–2.6 over 2^61 − 1 with the dealer, 2.0–2.7 over
 * 2^127 − 1). In memory a BGW client's submission is a method call on the servers, while an SPDZ
 * client waits for a grant round first.
 */
final class ClientsThroughputMain {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Shape SHAPE = new Shape(4, 32);

  private ClientsThroughputMain() {}

  /** One configuration: its name and how to make its servers' suite for one run. */
  private record Config(String name, Supplier<Servers.Suite> suite) {}

  public static void main(String[] args) throws IOException {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String[] fields = (args.length > 3 ? args[3] : "m61,m127").split(",");
    int threads = args.length > 4 ? Integer.parseInt(args[4]) : 16;
    System.out.printf(
        Locale.ROOT,
        "%d clients x %d sessions on %d threads, 3 servers, values of %s bits;"
            + " median of %d runs after a warm-up%n",
        clients,
        sessions,
        threads,
        Arrays.toString(SHAPE.bits()),
        rounds);
    Path dir = Files.createTempDirectory("cohort-clients-bench");
    try {
      for (String name : fields) {
        Field field = Fields.byName(name);
        long triples = (long) clients * sessions * SHAPE.elements() + 2L * MaskRounds.MAX_BLOCK;
        List<Config> configs =
            List.of(
                new Config("BGW", () -> Servers.Suite.bgw(field)),
                new Config("SPDZ, in-process dealer", () -> Servers.Suite.spdz(field)),
                new Config("SPDZ, dealer files", () -> files(dir, field, triples)));
        double[][][] results = new double[configs.size()][2][rounds];
        for (int r = -1; r < rounds; r++) { // r = -1: the warm-up
          for (int c = 0; c < configs.size(); c++) {
            double[] one = measure(configs.get(c).suite().get(), clients, sessions, threads);
            if (r >= 0) {
              results[c][0][r] = one[0];
              results[c][1][r] = one[1];
            }
          }
        }
        double bgwCpu = median(results[0][1]);
        for (int c = 0; c < configs.size(); c++) {
          double cpu = median(results[c][1]);
          System.out.printf(
              Locale.ROOT,
              "%-5s %-24s %7.0f submissions/s   CPU %6.1f us per submission (%.2f x BGW)%n",
              name,
              configs.get(c).name(),
              median(results[c][0]),
              cpu,
              cpu / bgwCpu);
        }
      }
    } finally {
      delete(dir);
    }
  }

  /** SPDZ over dealer files dealt afresh into {@code dir} (the dealing is not measured). */
  private static Servers.Suite files(Path dir, Field field, long triples) {
    try {
      delete(dir);
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DealerFiles.writeInsecure(dir, field, 3, new DealerFiles.Amounts(triples, 10, 10, 10, 10), 3);
    return Servers.Suite.spdz(SpdzConfig.dealerFiles(field, dir));
  }

  /** Submissions per second of one run, and CPU microseconds per submission. */
  private static double[] measure(Servers.Suite suite, int clients, int sessions, int threads) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    SplittableRandom random = new SplittableRandom(1);
    long[][] values = new long[clients][];
    for (int c = 0; c < clients; c++) {
      values[c] = new long[] {random.nextLong(-8, 8), random.nextLong(-(1L << 31), 1L << 31)};
    }
    AtomicLong start = new AtomicLong();
    AtomicLong cpu = new AtomicLong();
    Servers.Run<Void> run =
        Servers.run(
            suite,
            3,
            SHAPE,
            sessions,
            (p, b) -> b.closeAfter(clients).deadline(WAIT),
            mem -> {
              Client[] devices = new Client[clients];
              for (int c = 0; c < clients; c++) {
                devices[c] = Client.over(mem.connect(c), WAIT);
              }
              cpu.set(os.getProcessCpuTime());
              start.set(System.nanoTime());
              for (int s = 0; s < sessions; s++) {
                List<Client.Receipt> receipts =
                    Servers.parallel(clients, threads, c -> devices[c].submit(values[c]));
                for (Client.Receipt r : receipts) {
                  if (!r.received()) {
                    throw new IllegalStateException(r.toString());
                  }
                }
              }
              return null;
            });
    long nanos = System.nanoTime() - start.get();
    long cpuNanos = os.getProcessCpuTime() - cpu.get();
    for (SessionOutcome<long[]> o : run.outcomes().get(0)) {
      if (o.contributors() != clients) {
        throw new IllegalStateException("session " + o.session() + ": " + o.contributors());
      }
    }
    double submissions = clients * (double) sessions;
    return new double[] {submissions / (nanos / 1e9), cpuNanos / 1e3 / submissions};
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
