package dev.cohort.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The registry's counting and its text, read back by {@link Exposition}. */
class MetricsRegistryTest {

  @Test
  void scrape_everyKind_isTheTextFormatWithPrefixedNames() {
    MetricsRegistry registry = new MetricsRegistry();
    Counter rounds = registry.counter("rounds_total", "Rounds run.");
    AtomicLong queue = new AtomicLong(7);
    registry.gauge("queue_length", "Frames waiting.", queue::get);
    LabelledCounter refused =
        registry.labelledCounter("refused_total", "Submissions refused.", "reason");
    Summary round = registry.summary("round_seconds", "Time of one round.", 1e-9);
    rounds.add(41);
    rounds.increment();
    refused.increment("late");
    refused.increment("late");
    refused.increment("duplicate");
    round.record(2_000_000); // 2 ms
    round.record(500_000); // 0.5 ms
    queue.set(-3); // read at the scrape, not at registration

    Map<String, Exposition.Family> f = Exposition.parse(registry.scrape());

    assertEquals(
        List.of(
            "cohort_rounds_total",
            "cohort_queue_length",
            "cohort_refused_total",
            "cohort_round_seconds",
            "cohort_round_seconds_last"),
        new ArrayList<>(f.keySet()));
    assertEquals("counter", f.get("cohort_rounds_total").type());
    assertEquals("Rounds run.", f.get("cohort_rounds_total").help());
    assertEquals("42", Exposition.value(f, "cohort_rounds_total", "cohort_rounds_total"));
    assertEquals("gauge", f.get("cohort_queue_length").type());
    assertEquals("-3", Exposition.value(f, "cohort_queue_length", "cohort_queue_length"));
    assertEquals(
        List.of(
            new Exposition.Sample("cohort_refused_total", Map.of("reason", "duplicate"), "1"),
            new Exposition.Sample("cohort_refused_total", Map.of("reason", "late"), "2")),
        f.get("cohort_refused_total").samples());
    assertEquals("summary", f.get("cohort_round_seconds").type());
    assertEquals(
        0.0025,
        Double.parseDouble(Exposition.value(f, "cohort_round_seconds", "cohort_round_seconds_sum")),
        1e-15);
    assertEquals("2", Exposition.value(f, "cohort_round_seconds", "cohort_round_seconds_count"));
    assertEquals("gauge", f.get("cohort_round_seconds_last").type());
    assertEquals(
        0.0005,
        Double.parseDouble(
            Exposition.value(f, "cohort_round_seconds_last", "cohort_round_seconds_last")),
        1e-15);
  }

  @Test
  void scrape_labelValueAndHelpWithQuoteBackslashAndNewline_areEscapedAndReadBack() {
    MetricsRegistry registry = new MetricsRegistry();
    String help = "Path C:\\tmp\nsecond \"line\"";
    String value = "a \"quoted\" C:\\dir\nnext";
    registry.labelledCounter("odd_total", help, "what").increment(value);

    String text = registry.scrape();
    Map<String, Exposition.Family> f = Exposition.parse(text);

    assertTrue(
        text.contains("cohort_odd_total{what=\"a \\\"quoted\\\" C:\\\\dir\\nnext\"} 1\n"), text);
    assertTrue(text.contains("# HELP cohort_odd_total Path C:\\\\tmp\\nsecond \"line\"\n"), text);
    assertEquals(help, f.get("cohort_odd_total").help());
    assertEquals(Map.of("what", value), f.get("cohort_odd_total").samples().get(0).labels());
  }

  @Test
  void scrape_nothingObservedYet_showsZeroCountsAndNaNLast() {
    MetricsRegistry registry = new MetricsRegistry();
    registry.counter("a_total", "A.");
    registry.labelledCounter("b_total", "B.", "reason").labels("late");
    registry.labelledCounter("c_total", "C.", "reason");
    registry.summary("bytes", "Bytes per frame.", 1);

    Map<String, Exposition.Family> f = Exposition.parse(registry.scrape());

    assertEquals("0", Exposition.value(f, "cohort_a_total", "cohort_a_total"));
    assertEquals(
        List.of(new Exposition.Sample("cohort_b_total", Map.of("reason", "late"), "0")),
        f.get("cohort_b_total").samples());
    assertEquals(List.of(), f.get("cohort_c_total").samples());
    assertEquals("0", Exposition.value(f, "cohort_bytes", "cohort_bytes_sum"));
    assertEquals("0", Exposition.value(f, "cohort_bytes", "cohort_bytes_count"));
    assertEquals("NaN", Exposition.value(f, "cohort_bytes_last", "cohort_bytes_last"));
  }

  @Test
  void summary_scaleOne_keepsEveryDigitOfALargeSum() {
    MetricsRegistry registry = new MetricsRegistry();
    Summary bytes = registry.summary("bytes", "Bytes.", 1);
    bytes.record((1L << 60) + 1);
    bytes.record(2);

    Map<String, Exposition.Family> f = Exposition.parse(registry.scrape());

    assertEquals(
        Long.toString((1L << 60) + 3), Exposition.value(f, "cohort_bytes", "cohort_bytes_sum"));
    assertEquals("2", Exposition.value(f, "cohort_bytes_last", "cohort_bytes_last"));
  }

  @Test
  void update_eightThreadsAtOnce_losesNoIncrement() throws Exception {
    MetricsRegistry registry = new MetricsRegistry();
    Counter counter = registry.counter("hits_total", "Hits.");
    LabelledCounter refused = registry.labelledCounter("refused_total", "Refused.", "reason");
    Summary summary = registry.summary("amount", "Amounts.", 1);
    int threads = 8;
    int each = 50_000;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String reason = t % 2 == 0 ? "late" : "duplicate";
        int amount = t + 1;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    counter.increment();
                    refused.increment(reason);
                    summary.record(amount);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    Map<String, Exposition.Family> f = Exposition.parse(registry.scrape());
    assertEquals(
        Long.toString((long) threads * each),
        Exposition.value(f, "cohort_hits_total", "cohort_hits_total"));
    assertEquals(threads / 2L * each, refused.value("late"));
    assertEquals(threads / 2L * each, refused.value("duplicate"));
    assertEquals((long) threads * each, summary.count());
    assertEquals(each * (long) (threads * (threads + 1) / 2), summary.sum()); // each * (1+...+8)
    assertEquals(
        Long.toString(each * (long) (threads * (threads + 1) / 2)),
        Exposition.value(f, "cohort_amount", "cohort_amount_sum"));
  }

  @Test
  void register_nameTakenOrReservedBySummary_isRefusedNamingIt() {
    MetricsRegistry registry = new MetricsRegistry();
    registry.counter("x_total", "X.");
    registry.summary("round_seconds", "Rounds.", 1e-9);

    assertEquals(
        "cohort_x_total is registered already",
        assertThrows(IllegalArgumentException.class, () -> registry.gauge("x_total", "X.", () -> 1))
            .getMessage());
    assertEquals(
        "cohort_round_seconds_count is registered already",
        assertThrows(
                IllegalArgumentException.class,
                () -> registry.gauge("round_seconds_count", "C.", () -> 1))
            .getMessage());
    assertEquals(
        "cohort_round_seconds_last is registered already",
        assertThrows(
                IllegalArgumentException.class,
                () -> registry.summary("round_seconds_last", "L.", 1))
            .getMessage());
    // a refused family leaves nothing behind
    assertEquals(
        List.of("cohort_x_total", "cohort_round_seconds", "cohort_round_seconds_last"),
        new ArrayList<>(Exposition.parse(registry.scrape()).keySet()));
  }

  @Test
  void register_badNames_areRefusedWithTheRule() {
    MetricsRegistry registry = new MetricsRegistry();

    assertEquals(
        "counter name (rounds) must end in _total",
        assertThrows(IllegalArgumentException.class, () -> registry.counter("rounds", "R."))
            .getMessage());
    assertEquals(
        "metric name (round-time) must match [a-zA-Z_][a-zA-Z0-9_]*",
        assertThrows(
                IllegalArgumentException.class, () -> registry.gauge("round-time", "R.", () -> 0))
            .getMessage());
    assertEquals(
        "metric name (cohort_rounds_total) must not start with cohort_: the registry adds it",
        assertThrows(
                IllegalArgumentException.class, () -> registry.counter("cohort_rounds_total", "R."))
            .getMessage());
    assertEquals(
        "label name (__reason) must match [a-zA-Z_][a-zA-Z0-9_]* and not start with __ (reserved)",
        assertThrows(
                IllegalArgumentException.class,
                () -> registry.labelledCounter("r_total", "R.", "__reason"))
            .getMessage());
    assertEquals(
        "a counter only goes up: amount (-1) < 0",
        assertThrows(
                IllegalArgumentException.class, () -> registry.counter("c_total", "C.").add(-1))
            .getMessage());
    // only the one valid registration is exposed
    assertEquals(
        List.of("cohort_c_total"), new ArrayList<>(Exposition.parse(registry.scrape()).keySet()));
  }

  @Test
  void labelledCounter_pastMaxValues_refusesTheNextValue() {
    LabelledCounter counter =
        new MetricsRegistry().labelledCounter("by_kind_total", "By kind.", "kind");
    for (int i = 0; i < LabelledCounter.MAX_VALUES; i++) {
      counter.increment("k" + i);
    }

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> counter.increment("one-more"));
    assertEquals(
        "by_kind_total has 100 values of label kind already, refusing \"one-more\": label values"
            + " must come from a small fixed set",
        e.getMessage());
    counter.increment("k0"); // values already there still count
    assertEquals(2, counter.value("k0"));
  }
}
