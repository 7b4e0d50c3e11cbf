package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The busy-poll time of the options: kept by every copy, zero allowed, negative refused. */
class TransportOptionsTest {

  @Test
  void busyPoll_keptByTheOtherWithers() {
    Duration poll = Duration.ofNanos(12_345);
    TransportOptions options =
        TransportOptions.plaintextInsecure()
            .withBusyPoll(poll)
            .withReceiveTimeout(Duration.ofSeconds(3))
            .withIdleTimeout(Duration.ofSeconds(4))
            .withMaxFrameBytes(1 << 20)
            .withEmulation(LinkEmulation.NONE)
            .withHandshakeTimeout(Duration.ofSeconds(5))
            .withConnectTimeout(Duration.ofSeconds(6));
    assertEquals(poll, options.busyPoll());
    assertEquals(Duration.ofSeconds(3), options.receiveTimeout());
  }

  @Test
  void busyPoll_zero_isAllowed() {
    assertEquals(
        Duration.ZERO, TransportOptions.plaintextInsecure().withBusyPoll(Duration.ZERO).busyPoll());
  }

  @Test
  void busyPoll_negative_isRefusedNamingTheValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TransportOptions.plaintextInsecure().withBusyPoll(Duration.ofNanos(-1)));
    assertEquals(
        "busy poll (PT-0.000000001S) must be zero or positive (zero: sleep at once)",
        e.getMessage());
  }
}
