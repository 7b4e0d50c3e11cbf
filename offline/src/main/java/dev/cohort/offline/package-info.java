/**
 * The SPDZ offline phase the parties run among themselves, with no trusted dealer (PROTOCOLS.md
 * §5): MAC-authenticated triples, random bits, random elements and input masks from oblivious
 * transfer.
 */
package dev.cohort.offline;
