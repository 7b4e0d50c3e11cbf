package dev.cohort.api;

/** A party's 0-based index; it prints as {@code P0}, {@code P1}, ... */
public record PartyId(int index) {

  public PartyId {
    if (index < 0) {
      throw new IllegalArgumentException("party index (" + index + ") must be >= 0");
    }
  }

  public static PartyId of(int index) {
    return new PartyId(index);
  }

  @Override
  public String toString() {
    return "P" + index;
  }
}
