package dev.cohort.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.AbortException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Reading a round's frames: elements in place or copied, and short or over-long frames. */
class InboxTest {

  /** Peer 1's frame: one word, then three 2-word elements, then one element (2 words). */
  private static final long[] FRAME = {9, 10, 11, 20, 21, 30, 31, 40, 41};

  private final Inbox in = new Inbox(2);

  InboxTest() {
    in.reset(7, new long[][] {null, FRAME});
  }

  @Test
  void takeElements_offTheElementGrid_copiesIntoSpare() {
    assertEquals(9, in.read(1));
    long[] spare = new long[6];
    int at = in.takeElements(1, 3, 2, spare);
    assertSame(spare, in.elements());
    assertEquals(0, at);
    assertArrayEquals(new long[] {10, 11, 20, 21, 30, 31}, spare);
    // the last element now starts on word 7: odd, so it is copied too
    long[] spare2 = new long[2];
    assertEquals(0, in.takeElements(1, 1, 2, spare2));
    assertArrayEquals(new long[] {40, 41}, spare2);
    in.checkFullyRead();
  }

  @Test
  void aligned_afterOddAndEvenReads_saysWhetherElementsLieInPlace() {
    assertEquals(true, in.aligned(1, 2));
    assertEquals(9, in.read(1));
    assertEquals(false, in.aligned(1, 2));
    assertEquals(true, in.aligned(1, 1));
    in.takeElements(1, 1, 1, null); // one-word elements lie in place: no spare needed
    assertEquals(true, in.aligned(1, 2));
    assertEquals(1, in.takeElements(1, 3, 2, null)); // in place: the spare is not touched
    assertSame(FRAME, in.elements());
  }

  @Test
  void takeWholeFrame_messageAloneInItsFrame_handsOverTheFrame() {
    assertSame(FRAME, in.takeWholeFrame(1, FRAME.length));
    in.checkFullyRead(); // consumed: nothing left unread
  }

  @Test
  void takeWholeFrame_partOfTheFrame_consumesNothing() {
    assertEquals(null, in.takeWholeFrame(1, FRAME.length - 1)); // more words follow
    assertEquals(null, in.takeWholeFrame(0, 0)); // no frame from this party
    assertEquals(9, in.read(1));
    assertEquals(null, in.takeWholeFrame(1, FRAME.length - 1)); // words were read before it
    long[] rest = new long[8];
    in.read(1, rest, 0, 8);
    assertArrayEquals(Arrays.copyOfRange(FRAME, 1, FRAME.length), rest);
    in.checkFullyRead();
  }

  @Test
  void takeElements_onTheElementGrid_readsInPlace() {
    long[] spare = new long[8];
    int at = in.takeElements(1, 4, 1, spare); // one-word elements: always in place
    assertSame(FRAME, in.elements());
    assertEquals(0, at);
    assertEquals(21, in.read(1));
    long[] frame = {1, 2, 3, 4, 5, 6};
    in.reset(8, new long[][] {null, frame});
    in.takeElements(1, 1, 2, spare);
    assertEquals(1, in.takeElements(1, 2, 2, spare));
    assertSame(frame, in.elements());
    assertArrayEquals(new long[8], spare, "spare untouched when the frame is read in place");
    in.checkFullyRead();
  }

  @Test
  void takeElements_pastTheEnd_abortsNamingThePeer() {
    AbortException e =
        assertThrows(AbortException.class, () -> in.takeElements(1, 5, 2, new long[10]));
    assertEquals(
        true, e.getMessage().startsWith("P1 sent a short message in round 7"), e.getMessage());
  }

  @Test
  void resetWithLengths_readsOnlyThePrefix() {
    long[] buffer = {1, 2, 3, 4, 5, 6, 7, 8}; // a sender's buffer, 4 words of it sent
    in.reset(9, new long[][] {null, buffer}, new int[] {0, 4});
    assertEquals(0, in.takeElements(1, 2, 1, null)); // words 1, 2 in place
    assertSame(buffer, in.elements());
    long[] two = new long[2];
    in.read(1, two, 0, 2);
    assertArrayEquals(new long[] {3, 4}, two);
    in.checkFullyRead();
    AbortException e = assertThrows(AbortException.class, () -> in.read(1));
    assertEquals(true, e.getMessage().startsWith("P1 sent a short message in round 9"));
  }

  @Test
  void resetWithLengths_wordsLeftUnread_abortsCountingOnlyThePrefix() {
    in.reset(9, new long[][] {null, new long[] {1, 2, 3, 4, 5, 6, 7, 8}}, new int[] {0, 3});
    in.read(1);
    AbortException e = assertThrows(AbortException.class, in::checkFullyRead);
    assertEquals(true, e.getMessage().startsWith("P1 sent 2 unexpected words in round 9"));
  }

  @Test
  void resetWithLengths_longerThanTheArray_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> in.reset(9, new long[][] {null, new long[3]}, new int[] {0, 4}));
  }

  @Test
  void takeWholeFrame_senderBufferInstalledWithLengths_neverHandedOut() {
    long[] buffer = {1, 2, 3, 4}; // exactly the message: still the sender's, not this party's
    in.reset(10, new long[][] {null, buffer}, new int[] {0, 4});
    assertEquals(null, in.takeWholeFrame(1, 4));
    in.read(1, new long[4], 0, 4);
    in.checkFullyRead();
  }
}
