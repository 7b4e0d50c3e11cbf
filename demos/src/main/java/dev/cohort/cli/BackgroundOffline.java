package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzPreprocessing;

/**
 * {@code --offline-phase} of a demo whose parties run in one JVM: the parties make their SPDZ
 * material among themselves while the demo runs ({@link OfflinePhase#inBackground}), over a mesh of
 * their own on loopback (TLS with the demo's keys unless the demo runs in plaintext). Close it
 * after the run.
 */
final class BackgroundOffline implements PreprocessingSource, AutoCloseable {

  private final Loopback loopback;
  private final OfflinePhase.Background background;
  private LoopbackMesh mesh;

  BackgroundOffline(Transport transport, boolean plaintext) {
    this.loopback = plaintext ? Loopback.insecurePlaintext(transport) : Loopback.tls(transport);
    this.background = OfflinePhase.inBackground(this::connect);
  }

  /** Party {@code party}'s offline channel: blocks until every party has connected. */
  private Channel connect(int party) {
    LoopbackMesh m;
    synchronized (this) {
      m = mesh;
    }
    return m.connect(party);
  }

  @Override
  public SpdzPreprocessing open(Field field, int party, int parties) {
    bind(parties);
    return background.open(field, party, parties);
  }

  private synchronized void bind(int parties) {
    if (mesh == null) {
      mesh = loopback.bind(parties);
    }
  }

  /** How long the online phase waited for material, summed over the parties. */
  long waitNanos() {
    return background.waitNanos();
  }

  /** Triples the producers made, summed over the parties. */
  long triplesMade() {
    return background.triplesMade();
  }

  @Override
  public void close() {
    background.close();
    loopback.close();
  }
}
