package dev.cohort.clients;

import dev.cohort.suite.ImportedColumns;
import dev.cohort.suite.Shares;

/** A session's validated client inputs at one server, one {@link Shares} vector per column. */
final class Columns implements ImportedColumns {

  private final Shape shape;
  private final Shares[] columns;

  Columns(Shape shape, Shares[] columns) {
    this.shape = shape;
    this.columns = columns;
  }

  @Override
  public int contributors() {
    return columns[0].length;
  }

  @Override
  public int columns() {
    return columns.length;
  }

  @Override
  public int bits(int column) {
    return shape.bits(column);
  }

  @Override
  public Shares column(int column) {
    return columns[column];
  }
}
