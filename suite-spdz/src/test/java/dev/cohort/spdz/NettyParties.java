package dev.cohort.spdz;

import dev.cohort.api.Computation;
import dev.cohort.api.PartyId;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.netty.NettyTransport;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Test harness: n parties as threads, each with its own {@link NettyNetwork} on 127.0.0.1 (port 0)
 * and TLS keys generated into a test's directory, connected as a real mesh. The first party to fail
 * is rethrown as {@link PartyFailedException} with the others suppressed.
 */
final class NettyParties {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final int parties;
  private final Path keys;

  private NettyParties(int parties, Path keys) {
    this.parties = parties;
    this.keys = keys;
  }

  /** Generates a CA and certificates for P0 to P(parties-1) into {@code directory}. */
  static void generateKeys(Path directory, int parties) {
    Certificates.generate(directory, parties);
  }

  /** The first {@code parties} parties of the keys in {@code directory}. */
  static NettyParties withTls(int parties, Path directory) {
    return new NettyParties(parties, directory);
  }

  private TransportOptions options(int party) {
    return TransportOptions.tls(TlsIdentity.load(keys, party))
        .withConnectTimeout(TIMEOUT)
        .withReceiveTimeout(TIMEOUT);
  }

  /** Every party runs {@code computation} through an engine over its own TLS transport. */
  <T> List<Result<T>> run(SuiteFactory suite, EngineConfig config, Computation<T> computation) {
    List<NettyNetwork> networks = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    try {
      for (int p = 0; p < parties; p++) {
        NettyNetwork network =
            NettyNetwork.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), options(p));
        networks.add(network);
        addresses.add(network.localAddress());
      }
    } catch (RuntimeException e) {
      networks.forEach(NettyNetwork::close);
      throw e;
    }
    ExecutorService pool = Executors.newFixedThreadPool(parties);
    try {
      List<Future<Result<T>>> futures = new ArrayList<>();
      for (int p = 0; p < parties; p++) {
        NettyNetwork network = networks.get(p);
        futures.add(
            pool.submit(
                () -> {
                  try (NettyTransport transport = network.connect(addresses)) {
                    return new Engine(suite, transport, config).run(computation);
                  } finally {
                    network.close();
                  }
                }));
      }
      return collect(futures);
    } finally {
      pool.shutdownNow();
    }
  }

  private <T> List<T> collect(List<Future<T>> futures) {
    List<T> results = new ArrayList<>();
    PartyFailedException failure = null;
    for (int p = 0; p < parties; p++) {
      try {
        results.add(futures.get(p).get(3 * TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      } catch (ExecutionException | TimeoutException e) {
        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        PartyFailedException failed = new PartyFailedException(PartyId.of(p), cause);
        if (failure == null) {
          failure = failed;
        } else {
          failure.addSuppressed(failed);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the parties", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return results;
  }
}
