package dev.cohort.cli;

import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportOptions;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/** Emulated latency and bandwidth on every link, for experiments on one machine. */
final class LinkOptions {

  @Option(
      names = "--latency-ms",
      paramLabel = "MS",
      defaultValue = "0",
      description = "One-way latency added to every link, in ms (default: ${DEFAULT-VALUE}).")
  double latencyMillis;

  @Option(
      names = "--bandwidth-mbit",
      paramLabel = "MBIT",
      defaultValue = "0",
      description =
          "Bandwidth cap of every link, in Mbit/s; 0 for none (default: ${DEFAULT-VALUE}).")
  double bandwidthMbit;

  /** The emulation these options ask for; throws IllegalArgumentException for negative values. */
  LinkEmulation emulation() {
    if (!(latencyMillis >= 0) || !(bandwidthMbit >= 0)) {
      throw new IllegalArgumentException(
          "latency-ms ("
              + latencyMillis
              + ") and bandwidth-mbit ("
              + bandwidthMbit
              + ") must be >= 0");
    }
    return new LinkEmulation(
        Duration.ofNanos(Math.round(latencyMillis * 1e6)), Math.round(bandwidthMbit * 1e6 / 8));
  }

  TransportOptions applyTo(TransportOptions options) {
    LinkEmulation emulation = emulation();
    return emulation.equals(LinkEmulation.NONE) ? options : options.withEmulation(emulation);
  }

  /** How the links are emulated, for the report; empty for none. */
  String describe() {
    if (latencyMillis == 0 && bandwidthMbit == 0) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        ", emulated links: %s ms latency, %s",
        trim(latencyMillis),
        bandwidthMbit == 0 ? "no bandwidth cap" : trim(bandwidthMbit) + " Mbit/s");
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
