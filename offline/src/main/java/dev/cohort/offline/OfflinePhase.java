package dev.cohort.offline;

import dev.cohort.field.Field;
import dev.cohort.net.Channel;
import dev.cohort.offline.mascot.MascotPreprocessing;
import dev.cohort.offline.ot.BaseOts;
import dev.cohort.offline.ot.KosExtension;
import dev.cohort.random.Prg;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzPreprocessing;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The SPDZ offline phase as a user starts it: base OTs on an elliptic curve ({@link BaseOts}), the
 * actively secure OT extension over them ({@link KosExtension}) and MASCOT on top ({@link
 * MascotPreprocessing}), all over one channel that every party opens at the same time, with a fresh
 * secure PRG. Two ways to use it: {@link #start} makes material on demand (what {@code cohort
 * preprocess --party I} writes to a party's file), and {@link #inBackground} feeds a running online
 * phase ({@link BackgroundPreprocessing}).
 */
public final class OfflinePhase {

  /** Triples per batch of the background producers (a few hundred milliseconds of work). */
  public static final int TRIPLE_BATCH = 4096;

  /** Items of every other kind per batch of the background producers. */
  public static final int OTHER_BATCH = 1024;

  private OfflinePhase() {}

  /**
   * This party's offline phase over {@code channel}: runs the base OTs and the extension's set-up
   * now (every party calls this at the same time), then makes material on each call.
   */
  public static SpdzPreprocessing start(Field field, Channel channel) {
    Prg prg = Prg.secure();
    BaseOts base = new BaseOts(channel, prg);
    KosExtension extension = new KosExtension(channel, base, prg);
    return new MascotPreprocessing(field, channel, base, extension, prg);
  }

  /**
   * A source for the online phase whose material the parties make in the background while it runs:
   * party {@code p}'s offline channel is {@code channels.apply(p)} (a channel of its own beside the
   * online phase's, opened when the party's suite is created). Close the returned source after the
   * runs to stop the producers.
   */
  public static Background inBackground(IntFunction<Channel> channels) {
    return new Background(channels);
  }

  /** The background source: {@link PreprocessingSource} plus what its producers did. */
  public static final class Background implements PreprocessingSource, AutoCloseable {
    private final IntFunction<Channel> channels;
    private final List<BackgroundPreprocessing> started = new ArrayList<>();

    private Background(IntFunction<Channel> channels) {
      this.channels = channels;
    }

    @Override
    public SpdzPreprocessing open(Field field, int party, int parties) {
      Channel channel = channels.apply(party);
      BackgroundPreprocessing b =
          new BackgroundPreprocessing(
              start(field, channel), channel, field.words(), TRIPLE_BATCH, OTHER_BATCH);
      synchronized (started) {
        started.add(b);
      }
      return b;
    }

    /** How long the online phases waited for material, in all parties together. */
    public long waitNanos() {
      long total = 0;
      synchronized (started) {
        for (BackgroundPreprocessing b : started) {
          total += b.waitNanos();
        }
      }
      return total;
    }

    /**
     * The producers' items so far, summed over parties (see {@link
     * BackgroundPreprocessing#produced}).
     */
    public long triplesMade() {
      long total = 0;
      synchronized (started) {
        for (BackgroundPreprocessing b : started) {
          total += b.produced()[0];
        }
      }
      return total;
    }

    @Override
    public void close() {
      synchronized (started) {
        for (BackgroundPreprocessing b : started) {
          b.close();
        }
      }
    }
  }
}
