package dev.cohort.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.netty.LeakCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The metrics endpoint over real HTTP on loopback, read with the JDK's HTTP client. */
@ExtendWith(LeakCheck.class)
class MetricsServerTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private MetricsRegistry registry;
  private MetricsServer server;

  @BeforeEach
  void start() {
    registry = new MetricsRegistry();
    server =
        MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void health_get_answers200WithStatusOk() throws Exception {
    HttpResponse<String> response = get("/health");

    assertEquals(200, response.statusCode());
    assertEquals("{\"status\":\"ok\"}", response.body());
    assertEquals("application/json", response.headers().firstValue("content-type").orElse(""));
  }

  @Test
  void metrics_get_answersTheTextFormatWithTheRegistrysValues() throws Exception {
    registry.counter("rounds_total", "Rounds run.").add(12);
    registry.labelledCounter("refused_total", "Refused.", "reason").increment("late");
    registry.gauge("clients", "Connected clients.", () -> 3);
    registry.summary("round_seconds", "Round time.", 1e-9).record(1_500_000);

    HttpResponse<String> response = get("/metrics?ignored=1");

    assertEquals(200, response.statusCode());
    String type = response.headers().firstValue("content-type").orElse("");
    assertTrue(type.startsWith("text/plain; version=0.0.4"), type);
    Map<String, Exposition.Family> f = Exposition.parse(response.body());
    assertEquals("12", Exposition.value(f, "cohort_rounds_total", "cohort_rounds_total"));
    assertEquals(
        List.of(new Exposition.Sample("cohort_refused_total", Map.of("reason", "late"), "1")),
        f.get("cohort_refused_total").samples());
    assertEquals("3", Exposition.value(f, "cohort_clients", "cohort_clients"));
    assertEquals(
        0.0015,
        Double.parseDouble(Exposition.value(f, "cohort_round_seconds", "cohort_round_seconds_sum")),
        1e-15);
  }

  @Test
  void metrics_afterConcurrentIncrements_showsTheirSum() throws Exception {
    Counter counter = registry.counter("hits_total", "Hits.");
    int threads = 4;
    int each = 25_000;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < each; i++) {
                    counter.increment();
                  }
                  return null;
                }));
      }
      go.countDown();
      for (int i = 0; i < 5; i++) { // scrapes during the increments are well formed too
        Exposition.parse(get("/metrics").body());
      }
      for (Future<?> d : done) {
        d.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    Map<String, Exposition.Family> f = Exposition.parse(get("/metrics").body());
    assertEquals(
        Long.toString((long) threads * each),
        Exposition.value(f, "cohort_hits_total", "cohort_hits_total"));
  }

  @Test
  void unknownPath_anyMethod_answers404() throws Exception {
    assertEquals(404, get("/").statusCode());
    assertEquals(404, get("/metricsx").statusCode());
    assertEquals(404, send("POST", "/nothing").statusCode());
  }

  @Test
  void knownPath_otherMethod_answers405AllowingGet() throws Exception {
    for (String path : new String[] {"/metrics", "/health"}) {
      for (String method : new String[] {"POST", "PUT", "DELETE"}) {
        HttpResponse<String> response = send(method, path);
        assertEquals(405, response.statusCode(), method + " " + path);
        assertEquals("GET", response.headers().firstValue("allow").orElse(""), method + " " + path);
      }
    }
  }

  @Test
  void metrics_failingGauge_answers500AndKeepsServing() throws Exception {
    registry.gauge(
        "broken",
        "Fails.",
        () -> {
          throw new IllegalStateException("no value");
        });

    assertEquals(500, get("/metrics").statusCode());
    assertEquals(200, get("/health").statusCode());
  }

  @Test
  void rawSocket_twoRequestsOnOneConnectionThenGarbage_answersBothThen400AndCloses()
      throws Exception {
    try (Socket socket = new Socket()) {
      socket.connect(server.localAddress(), 5000);
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
                      + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                      + "\u0001\u0002 not http at all\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
      String all = readToEnd(socket.getInputStream()); // ends: the server closed the connection

      int ok = all.indexOf("HTTP/1.1 200 OK");
      int notFound = all.indexOf("HTTP/1.1 404 Not Found");
      int bad = all.indexOf("HTTP/1.1 400 Bad Request");
      assertTrue(ok >= 0 && notFound > ok && bad > notFound, all);
    }
  }

  @Test
  void start_portTaken_failsNamingTheAddressWithTheBindExceptionAsCause() {
    InetSocketAddress taken = server.localAddress();

    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> MetricsServer.start(taken, registry));

    assertEquals(
        "metrics endpoint cannot listen on 127.0.0.1:"
            + taken.getPort()
            + ": Address already in use (is this party running already, or another program on"
            + " that port?)",
        e.getMessage());
    assertTrue(e.getCause() instanceof BindException, String.valueOf(e.getCause()));
  }

  @Test
  void start_addressNotOfThisHost_failsNamingIt() {
    InetSocketAddress elsewhere = new InetSocketAddress("192.0.2.1", 0); // TEST-NET-1: nobody's

    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> MetricsServer.start(elsewhere, registry));

    assertEquals(
        "metrics endpoint cannot listen on 192.0.2.1:0: Cannot assign requested address (is"
            + " 192.0.2.1 an address of this host?)",
        e.getMessage());
    assertTrue(e.getCause() instanceof BindException, String.valueOf(e.getCause()));
  }

  @Test
  void close_stopsListening() throws Exception {
    InetSocketAddress address = server.localAddress();
    assertEquals(200, get("/health").statusCode());

    server.close();
    server.close(); // idempotent

    try (Socket socket = new Socket()) {
      assertThrows(ConnectException.class, () -> socket.connect(address, 5000));
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send("GET", path);
  }

  private HttpResponse<String> send(String method, String path)
      throws IOException, InterruptedException {
    InetSocketAddress at = server.localAddress();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + path))
            .timeout(TIMEOUT)
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static String readToEnd(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    in.transferTo(out);
    return out.toString(StandardCharsets.ISO_8859_1);
  }
}
