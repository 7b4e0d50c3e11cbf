package dev.cohort.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The GPS traces of the distance-average demo: one list of fixes per device, in time order. Session
 * {@code s} (1-based) covers the move from fix {@code s - 1} to fix {@code s}; its distance is the
 * haversine distance between them, rounded to whole metres.
 *
 * <p>Traces are generated from a seed (random walks at realistic speeds, one fix every 15 to 20
 * minutes) or read from a CSV file with lines {@code device,timestamp,latitude,longitude}. {@code
 * java.util.Random} is fine here: it makes up demo inputs, never protocol randomness.
 */
final class Traces {

  /** The mean Earth radius of the haversine formula, in metres. */
  static final double EARTH_RADIUS_METRES = 6_371_008.8;

  /** One GPS fix: seconds since the epoch, degrees. */
  record Fix(long timestamp, double latitude, double longitude) {}

  /** Device names, in party order (device {@code i} is party {@code i + 1}), and their fixes. */
  private final List<String> devices;

  private final List<List<Fix>> fixes;

  private Traces(List<String> devices, List<List<Fix>> fixes) {
    this.devices = devices;
    this.fixes = fixes;
  }

  int devices() {
    return devices.size();
  }

  String name(int device) {
    return devices.get(device);
  }

  List<Fix> fixes(int device) {
    return fixes.get(device);
  }

  /** The most sessions any device has fixes for. */
  int sessions() {
    int most = 0;
    for (List<Fix> trace : fixes) {
      most = Math.max(most, trace.size() - 1);
    }
    return most;
  }

  /** Metres {@code device} moved in session {@code session} (1-based); 0 past its last fix. */
  long distance(int device, int session) {
    List<Fix> trace = fixes.get(device);
    if (session < 1 || session >= trace.size()) {
      return 0;
    }
    return Math.round(haversineMetres(trace.get(session - 1), trace.get(session)));
  }

  /** Great-circle distance between two fixes by the haversine formula. */
  static double haversineMetres(Fix a, Fix b) {
    double phi1 = Math.toRadians(a.latitude());
    double phi2 = Math.toRadians(b.latitude());
    double dPhi = phi2 - phi1;
    double dLambda = Math.toRadians(b.longitude() - a.longitude());
    double h =
        Math.sin(dPhi / 2) * Math.sin(dPhi / 2)
            + Math.cos(phi1) * Math.cos(phi2) * Math.sin(dLambda / 2) * Math.sin(dLambda / 2);
    return 2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  // ---- generated ----

  /**
   * Random walks for {@code devices} devices with {@code sessions + 1} fixes each, repeatable from
   * {@code seed}. Each interval of 15 to 20 minutes the device is parked, walks, cycles or drives
   * at a speed drawn around that mode's typical speed, on a heading that drifts.
   */
  static Traces generate(long seed, int devices, int sessions) {
    List<String> names = new ArrayList<>();
    List<List<Fix>> all = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      Random random = new Random(seed * 1_000_003L + d);
      names.add("device-" + (d + 1));
      List<Fix> trace = new ArrayList<>(sessions + 1);
      double lat = 52.0 + random.nextDouble() - 0.5; // around the middle of the Netherlands
      double lon = 5.0 + random.nextDouble() - 0.5;
      double heading = random.nextDouble() * 2 * Math.PI;
      long time = 1_700_000_000L + random.nextInt(900);
      trace.add(new Fix(time, lat, lon));
      for (int s = 0; s < sessions; s++) {
        long interval = 900 + random.nextInt(301); // 15 to 20 minutes
        double metres = speed(random) * interval;
        heading += random.nextGaussian() * 0.6;
        double dLat = metres * Math.cos(heading) / EARTH_RADIUS_METRES;
        double dLon =
            metres * Math.sin(heading) / (EARTH_RADIUS_METRES * Math.cos(Math.toRadians(lat)));
        lat = Math.max(-80, Math.min(80, lat + Math.toDegrees(dLat)));
        lon = wrap(lon + Math.toDegrees(dLon));
        time += interval;
        trace.add(new Fix(time, lat, lon));
      }
      all.add(trace);
    }
    return new Traces(names, all);
  }

  /** Metres per second: parked 40%, walking 30%, cycling 15%, driving 15% of the intervals. */
  private static double speed(Random random) {
    double mode = random.nextDouble();
    double typical;
    if (mode < 0.40) {
      return 0;
    } else if (mode < 0.70) {
      typical = 1.4;
    } else if (mode < 0.85) {
      typical = 4.5;
    } else {
      typical = 14.0;
    }
    // Moving part of the interval only, at a speed within +-30% of the mode's typical speed.
    double moving = 0.2 + 0.8 * random.nextDouble();
    return typical * (0.7 + 0.6 * random.nextDouble()) * moving;
  }

  private static double wrap(double longitude) {
    if (longitude >= 180) {
      return longitude - 360;
    }
    if (longitude < -180) {
      return longitude + 360;
    }
    return longitude;
  }

  // ---- CSV ----

  /**
   * Reads {@code device,timestamp,latitude,longitude} lines; a first line starting with {@code
   * device} is a header, blank lines and lines starting with {@code #} are skipped. The timestamp
   * is seconds since the epoch or ISO-8601 ({@code 2024-05-01T10:15:00Z}). Devices are sorted by
   * name and each device's fixes by time. A malformed line throws {@link IllegalArgumentException}
   * naming the file and the line number.
   */
  /**
   * The first 16 hex digits of the SHA-256 of {@code csv}'s bytes: what parties compare to know
   * they were given the same traces.
   */
  static String digest(Path csv) {
    try (java.io.InputStream in = Files.newInputStream(csv)) {
      java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
      return java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read traces " + csv, e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  static Traces read(Path csv) {
    Map<String, List<Fix>> byDevice = new TreeMap<>();
    try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        String trimmed = line.strip();
        if (trimmed.isEmpty()
            || trimmed.startsWith("#")
            || (number == 1 && trimmed.toLowerCase().startsWith("device"))) {
          continue;
        }
        String[] fields = trimmed.split(",", -1);
        if (fields.length != 4) {
          throw malformed(
              csv,
              number,
              "expected 4 fields (device,timestamp,latitude,longitude), got " + fields.length);
        }
        String device = fields[0].strip();
        if (device.isEmpty()) {
          throw malformed(csv, number, "the device is empty");
        }
        long timestamp = timestamp(csv, number, fields[1].strip());
        double lat = degrees(csv, number, "latitude", fields[2].strip(), 90);
        double lon = degrees(csv, number, "longitude", fields[3].strip(), 180);
        byDevice.computeIfAbsent(device, k -> new ArrayList<>()).add(new Fix(timestamp, lat, lon));
      }
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("traces file " + csv + " does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read traces file " + csv, e);
    }
    if (byDevice.isEmpty()) {
      throw new IllegalArgumentException("traces file " + csv + " holds no fixes");
    }
    List<String> names = new ArrayList<>(byDevice.keySet());
    List<List<Fix>> all = new ArrayList<>();
    for (String name : names) {
      List<Fix> trace = byDevice.get(name);
      trace.sort(Comparator.comparingLong(Fix::timestamp));
      all.add(trace);
    }
    return new Traces(names, all);
  }

  private static long timestamp(Path csv, int line, String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      try {
        return Instant.parse(text).getEpochSecond();
      } catch (DateTimeParseException e2) {
        throw malformed(
            csv,
            line,
            "timestamp '"
                + text
                + "' is neither epoch seconds nor ISO-8601 (2024-05-01T10:15:00Z)");
      }
    }
  }

  private static double degrees(Path csv, int line, String what, String text, double limit) {
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw malformed(csv, line, what + " '" + text + "' is not a number");
    }
    if (!(value >= -limit && value <= limit)) {
      throw malformed(
          csv, line, what + " " + text + " is outside [-" + (int) limit + ", " + (int) limit + "]");
    }
    return value;
  }

  private static IllegalArgumentException malformed(Path csv, int line, String why) {
    return new IllegalArgumentException(csv + " line " + line + ": " + why);
  }
}
