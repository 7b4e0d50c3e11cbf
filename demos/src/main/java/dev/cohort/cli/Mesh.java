package dev.cohort.cli;

import dev.cohort.api.PartyId;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.netty.NettyOptions;
import dev.cohort.netty.NettyTransport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Connects parties over the real Netty transport: all of them as threads in this JVM on loopback,
 * or this process's one party to the others listed in a parties file.
 */
final class Mesh {

  /** What a party does once connected; runs on the party's own thread. */
  @FunctionalInterface
  interface PartyTask<T> {
    T run(int party, NettyTransport transport);
  }

  private Mesh() {}

  /**
   * Binds every party on 127.0.0.1 (port 0), connects the full mesh and runs {@code task} for each
   * party on its own thread. The first party to fail is rethrown, naming it, with the others'
   * failures suppressed; a failing engine aborts its channel, so the others fail promptly.
   */
  static <T> List<T> loopback(int parties, IntFunction<NettyOptions> options, PartyTask<T> task) {
    List<NettyNetwork> networks = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(parties);
    try {
      for (int p = 0; p < parties; p++) {
        NettyNetwork network =
            NettyNetwork.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), options.apply(p));
        networks.add(network);
        addresses.add(network.localAddress());
      }
      CompletionService<T> done = new ExecutorCompletionService<>(pool);
      List<Future<T>> futures = new ArrayList<>();
      for (int p = 0; p < parties; p++) {
        int party = p;
        futures.add(
            done.submit(
                () -> {
                  Thread.currentThread().setName("cohort-" + PartyId.of(party));
                  try (NettyTransport transport = networks.get(party).connect(addresses)) {
                    return task.run(party, transport);
                  }
                }));
      }
      PartyFailedException failure = null;
      for (int i = 0; i < parties; i++) {
        Future<T> f = done.take();
        try {
          f.get();
        } catch (ExecutionException e) {
          PartyFailedException failed =
              new PartyFailedException(PartyId.of(futures.indexOf(f)), e.getCause());
          if (failure == null) {
            failure = failed;
          } else {
            failure.addSuppressed(failed);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the parties", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
      for (NettyNetwork network : networks) {
        network.close();
      }
    }
  }

  /** Runs party {@code self} of a deployment: listens at its address, dials the others. */
  static <T> T one(int self, PartiesFile parties, NettyOptions options, PartyTask<T> task) {
    InetSocketAddress listen = parties.addresses().get(self);
    NettyNetwork network = NettyNetwork.bind(self, parties.parties(), listen, options);
    try (NettyTransport transport = network.connect(parties.addresses())) {
      return task.run(self, transport);
    } finally {
      network.close();
    }
  }
}
