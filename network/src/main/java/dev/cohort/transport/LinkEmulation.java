package dev.cohort.transport;

import java.time.Duration;

/**
 * What {@link LinkEmulationHandler} adds to every outbound link of a party, for experiments on one
 * machine: a fixed one-way latency and a bandwidth cap.
 *
 * @param latency added to every frame before it leaves; zero for none
 * @param bytesPerSecond the most bytes per second one link carries; zero for no cap
 */
public record LinkEmulation(Duration latency, long bytesPerSecond) {

  /** No added latency, no cap: the handler is left out of the pipeline. */
  public static final LinkEmulation NONE = new LinkEmulation(Duration.ZERO, 0);

  public LinkEmulation {
    if (latency == null || latency.isNegative()) {
      throw new IllegalArgumentException("latency (" + latency + ") must be >= 0");
    }
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException(
          "bytes per second (" + bytesPerSecond + ") must be >= 0 (0: no cap)");
    }
  }

  public static LinkEmulation latency(Duration latency) {
    return new LinkEmulation(latency, 0);
  }

  public LinkEmulation withBytesPerSecond(long bytesPerSecond) {
    return new LinkEmulation(latency, bytesPerSecond);
  }

  /** True when links are not emulated (no latency, no bandwidth cap). */
  public boolean isNone() {
    return latency.isZero() && bytesPerSecond == 0;
  }
}
