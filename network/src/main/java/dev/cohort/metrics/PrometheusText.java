package dev.cohort.metrics;

import java.util.regex.Pattern;

/**
 * The Prometheus text exposition format, version 0.0.4: the names it allows, its escaping and its
 * numbers. Every line the registry writes goes through here, so the format's rules live in one
 * place.
 *
 * <pre>
 * # HELP cohort_submissions_refused_total Submissions refused, by reason.
 * # TYPE cohort_submissions_refused_total counter
 * cohort_submissions_refused_total{reason="late"} 3
 * </pre>
 *
 * <p>HELP text escapes backslash and line feed ({@code \\}, {@code \n}); a label value also escapes
 * the double quote ({@code \"}). Numbers are Go floats: {@code NaN}, {@code +Inf}, {@code -Inf} or
 * a decimal with an optional exponent.
 */
final class PrometheusText {

  /** What {@code GET /metrics} answers with, as Prometheus asks for this version. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** Metric names; the colon the format also allows is left to recording rules. */
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** Label names; those starting with two underscores are reserved to Prometheus. */
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private PrometheusText() {}

  /** Throws unless {@code name} is a valid metric name. */
  static String checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("metric name (" + name + ") must match " + NAME.pattern());
    }
    return name;
  }

  /** Throws unless {@code label} is a valid label name not reserved to Prometheus. */
  static String checkLabel(String label) {
    if (label == null || !LABEL.matcher(label).matches() || label.startsWith("__")) {
      throw new IllegalArgumentException(
          "label name ("
              + label
              + ") must match "
              + LABEL.pattern()
              + " and not start with __ (reserved)");
    }
    return label;
  }

  /** Appends the HELP and TYPE lines of a family. */
  static void header(StringBuilder out, String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ');
    escape(out, help, false);
    out.append("\n# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  /** Appends a sample without labels. */
  static void sample(StringBuilder out, String name, String value) {
    out.append(name).append(' ').append(value).append('\n');
  }

  /** Appends a sample with one label. */
  static void sample(
      StringBuilder out, String name, String label, String labelValue, String value) {
    out.append(name).append('{').append(label).append("=\"");
    escape(out, labelValue, true);
    out.append("\"} ").append(value).append('\n');
  }

  /** {@code amount * scale} as the format writes a number; a scale of 1 keeps every digit. */
  static String number(long amount, double scale) {
    return scale == 1.0 ? Long.toString(amount) : number(amount * scale);
  }

  /** {@code value} as the format writes a number. */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    return Double.toString(value); // 1.5, 1.0E-4: both parse as Go floats
  }

  private static void escape(StringBuilder out, String text, boolean quote) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '"' && quote) {
        out.append("\\\"");
      } else {
        out.append(c);
      }
    }
  }
}
