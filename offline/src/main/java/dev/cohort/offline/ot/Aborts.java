package dev.cohort.offline.ot;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;

/**
 * The one way the OT layer gives up on a misbehaving peer: it tells every peer through the channel
 * (so they fail promptly instead of timing out) and returns the exception for the caller to throw.
 * Messages name the peer and the check, never a key or a choice bit.
 */
final class Aborts {

  private Aborts() {}

  static AbortException abort(Channel channel, int peer, String check) {
    String message = PartyId.of(peer) + " failed the " + check;
    channel.abort(message);
    return new AbortException(message);
  }

  /** Checks that the frame from {@code peer} has exactly {@code expected} words. */
  static void checkLength(Channel channel, long[] frame, int peer, int expected, String what) {
    if (frame.length != expected) {
      throw abort(
          channel,
          peer,
          "frame length check: its "
              + what
              + " frame has "
              + frame.length
              + " words, expected "
              + expected
              + " (truncated or malformed)");
    }
  }
}
