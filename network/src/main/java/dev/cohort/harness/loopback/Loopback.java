package dev.cohort.harness.loopback;

import dev.cohort.harness.Mesh;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Binds {@link LoopbackMesh}es of one transport for {@code LocalParties}: every party on 127.0.0.1
 * with its own endpoint, as a real deployment runs, but in one JVM. Invariant: keys this factory
 * generates live in a temporary directory of their own, deleted by {@link #close}.
 *
 * <pre>{@code
 * try (LocalParties parties =
 *     LocalParties.builder(3).suite(suite).mesh(Loopback.tls(Transport.NETTY)).standing().open()) {
 *   parties.run(computation);
 * }
 * }</pre>
 *
 * <p>Security: {@link #tls(Transport)} generates a CA and a certificate per party for the parties
 * (mutual TLS 1.3, as deployed); {@link #tls(Transport, Path)} takes them from a directory (the
 * layout of {@link Certificates#generate}); {@link #insecurePlaintext} is plain TCP,
 * unauthenticated and unencrypted, for benchmarks on loopback only.
 */
public final class Loopback implements Mesh.Factory {

  private final Transport transport;
  private final Path keys; // null: generated, or none for plaintext and given options
  private final IntFunction<TransportOptions> given; // null: derived from the keys
  private final boolean plaintext;
  private final UnaryOperator<TransportOptions> adjust;
  private Path generated; // keys generated for the first mesh; deleted on close
  private int generatedFor;
  private boolean closed;

  private Loopback(
      Transport transport,
      Path keys,
      IntFunction<TransportOptions> given,
      boolean plaintext,
      UnaryOperator<TransportOptions> adjust) {
    this.transport = transport;
    this.keys = keys;
    this.given = given;
    this.plaintext = plaintext;
    this.adjust = adjust;
  }

  /** Mutual TLS with keys generated for the parties when the first mesh is bound. */
  public static Loopback tls(Transport transport) {
    return new Loopback(transport, null, null, false, UnaryOperator.identity());
  }

  /** Mutual TLS with the keys in {@code keyDirectory} (as {@code cohort keys} writes them). */
  public static Loopback tls(Transport transport, Path keyDirectory) {
    return new Loopback(transport, keyDirectory, null, false, UnaryOperator.identity());
  }

  /** Plain TCP without authentication or encryption: INSECURE, for benchmarks on loopback. */
  public static Loopback insecurePlaintext(Transport transport) {
    return new Loopback(transport, null, null, true, UnaryOperator.identity());
  }

  /** Party {@code p} connects with {@code options.apply(p)}, exactly. */
  public static Loopback of(Transport transport, IntFunction<TransportOptions> options) {
    return new Loopback(transport, null, options, false, UnaryOperator.identity());
  }

  /** This factory, with {@code adjust} applied to every party's options (timeouts, limits). */
  public Loopback with(UnaryOperator<TransportOptions> adjust) {
    UnaryOperator<TransportOptions> before = this.adjust;
    return new Loopback(
        transport, keys, given, plaintext, options -> adjust.apply(before.apply(options)));
  }

  /**
   * This factory with latency and a bandwidth cap on every link; refused, unless {@code links} is
   * {@link LinkEmulation#NONE}, by a transport that does not emulate links.
   */
  public Loopback withEmulation(LinkEmulation links) {
    if (LinkEmulation.NONE.equals(links)) {
      return this;
    }
    if (!transport.emulatesLinks()) {
      throw new IllegalArgumentException(
          "link emulation needs the Netty transport: the "
              + transport.description()
              + " transport does not emulate links");
    }
    return with(options -> options.withEmulation(links));
  }

  public Transport transport() {
    return transport;
  }

  /** Binds {@code parties} parties on 127.0.0.1, each at a port the kernel picks. */
  @Override
  public LoopbackMesh bind(int parties) {
    IntFunction<TransportOptions> base = base(parties);
    return LoopbackMesh.bind(parties, transport, p -> adjust.apply(base.apply(p)));
  }

  private IntFunction<TransportOptions> base(int parties) {
    if (given != null) {
      return given;
    }
    if (plaintext) {
      return p -> TransportOptions.plaintextInsecure();
    }
    Path directory = keys != null ? keys : generatedKeys(parties);
    return p -> TransportOptions.tls(TlsIdentity.load(directory, p));
  }

  private synchronized Path generatedKeys(int parties) {
    if (closed) {
      throw new IllegalStateException("this loopback factory is closed");
    }
    if (generated == null) {
      try {
        generated = Files.createTempDirectory("cohort-keys-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a directory for the parties' keys", e);
      }
      Certificates.generate(generated, parties);
      generatedFor = parties;
    } else if (parties > generatedFor) {
      throw new IllegalArgumentException(
          "keys were generated for " + generatedFor + " parties, not " + parties);
    }
    return generated;
  }

  /** Deletes the keys this factory generated, if any. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (generated == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(generated)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the generated keys in " + generated, e);
    }
  }

  /** The directory of the generated keys, null before the first mesh (for tests of close). */
  synchronized Path generatedKeys() {
    return generated;
  }
}
