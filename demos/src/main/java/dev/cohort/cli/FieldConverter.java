package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Turns {@code --field} (m61, m127 or a prime) into a field, or a one-line usage error. */
final class FieldConverter implements ITypeConverter<Field> {
  @Override
  public Field convert(String value) {
    try {
      return Fields.byName(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
