package dev.cohort.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reader of the Prometheus text format 0.0.4 written from the format's description, not from the
 * code under test: it throws {@link AssertionError} on any line that is not a HELP line, a TYPE
 * line, a sample or empty, on a sample before its family's TYPE, on a family typed twice or whose
 * samples are not together, and on a sample name its family's type does not allow.
 */
final class Exposition {

  private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  private static final String LABEL_NAME = "[a-zA-Z_][a-zA-Z0-9_]*";
  private static final String VALUE =
      "(?:[-+]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?Inf|NaN)";
  private static final Pattern HELP =
      Pattern.compile("# HELP (" + NAME + ") ((?:[^\\\\]|\\\\[\\\\n])*)");
  private static final Pattern TYPE =
      Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|summary|histogram|untyped)");
  private static final Pattern SAMPLE =
      Pattern.compile("(" + NAME + ")(?:\\{(.*)\\})? (" + VALUE + ")(?: -?[0-9]+)?");

  /** One label pair and the comma after it, matched from where the previous one ended. */
  private static final Pattern LABEL =
      Pattern.compile("\\G(" + LABEL_NAME + ")=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(?:,|$)");

  /** One sample line: its name, its labels (unescaped) and its value as written. */
  record Sample(String name, Map<String, String> labels, String value) {}

  /** The families, by name: HELP text (unescaped), TYPE and samples. */
  record Family(String help, String type, List<Sample> samples) {}

  private Exposition() {}

  /** Every family of {@code text}, in order; throws AssertionError where the format is broken. */
  static Map<String, Family> parse(String text) {
    if (!text.isEmpty() && !text.endsWith("\n")) {
      throw new AssertionError("the last line has no line feed");
    }
    Map<String, String> helps = new HashMap<>();
    Map<String, String> types = new HashMap<>();
    Map<String, List<Sample>> samples = new LinkedHashMap<>();
    String current = null;
    for (String line : text.split("\n", -1)) {
      Matcher m;
      if (line.isEmpty()) {
        continue;
      } else if ((m = HELP.matcher(line)).matches()) {
        once(helps, m.group(1), unescape(m.group(2)), line);
      } else if ((m = TYPE.matcher(line)).matches()) {
        if (samples.containsKey(m.group(1))) {
          throw new AssertionError("TYPE after samples: " + line);
        }
        once(types, m.group(1), m.group(2), line);
        samples.put(m.group(1), new ArrayList<>());
        current = m.group(1);
      } else if ((m = SAMPLE.matcher(line)).matches()) {
        String name = m.group(1);
        if (current == null || !allowed(current, types.get(current), name)) {
          throw new AssertionError(
              "sample outside its family (last TYPE " + current + "): " + line);
        }
        samples.get(current).add(new Sample(name, labels(m.group(2), line), m.group(3)));
      } else {
        throw new AssertionError("not a line of the text format: " + line);
      }
    }
    Map<String, Family> families = new LinkedHashMap<>();
    for (Map.Entry<String, List<Sample>> e : samples.entrySet()) {
      families.put(
          e.getKey(), new Family(helps.get(e.getKey()), types.get(e.getKey()), e.getValue()));
    }
    return families;
  }

  /** The one sample named {@code name} with no labels. */
  static String value(Map<String, Family> families, String family, String name) {
    for (Sample s : families.get(family).samples()) {
      if (s.name().equals(name) && s.labels().isEmpty()) {
        return s.value();
      }
    }
    throw new AssertionError("no sample " + name + " in " + family);
  }

  private static boolean allowed(String family, String type, String name) {
    if (type.equals("summary")) {
      return name.equals(family) || name.equals(family + "_sum") || name.equals(family + "_count");
    }
    return name.equals(family);
  }

  private static void once(Map<String, String> map, String name, String value, String line) {
    if (map.put(name, value) != null) {
      throw new AssertionError("twice for one family: " + line);
    }
  }

  private static Map<String, String> labels(String text, String line) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (text == null) {
      return labels;
    }
    Matcher m = LABEL.matcher(text);
    int end = 0;
    while (end < text.length() && m.find() && m.start() == end) {
      if (labels.put(m.group(1), unescape(m.group(2))) != null) {
        throw new AssertionError("label twice: " + line);
      }
      end = m.end();
    }
    if (end != text.length()) {
      throw new AssertionError("bad labels at character " + end + ": " + line);
    }
    return labels;
  }

  private static String unescape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        char next = s.charAt(++i);
        out.append(next == 'n' ? '\n' : next);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
