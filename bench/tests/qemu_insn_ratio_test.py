#!/usr/bin/env python3
"""bench/qemu_insn_ratio.py's instruction counting: the sum over QEMU's exec lines of the instructions of each
block's latest in_asm listing, and a refusal (not a guess) for a log it cannot account for. The logs here are
synthetic, in QEMU 7.2's and 10's format; the tool's real runs are under qemu-user (bench/README.md)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import qemu_insn_ratio  # noqa: E402


def block(pc, n):
    lines = ["----------------", "IN: f"]
    lines += [f"0x{pc + 4 * i:016x}:  60000000  nop" for i in range(n)]
    return lines + [""]


def exec_line(pc):
    return f"Trace 0: 0x7f0000001000 [00000000/{pc:016x}/00000000/ff000000] f"


def fake_qemu(log, stdout="abcd", status=0):
    """A command that prints `log` on stderr as qemu -d does and `stdout` as the program would."""
    text = "\n".join(log) + "\n"
    return [sys.executable, "-c",
            f"import sys; sys.stderr.write({text!r}); print({stdout!r}); sys.exit({status})"]


class CountTest(unittest.TestCase):
    def test_sums_each_execution_of_a_block_by_its_listing(self):
        log = block(0x1000, 3) + block(0x2000, 2) + [exec_line(0x1000), exec_line(0x2000), exec_line(0x1000)]
        self.assertEqual(qemu_insn_ratio.count_instructions(fake_qemu(log)), (8, "abcd"))

    def test_a_retranslated_block_counts_its_latest_listing(self):
        log = block(0x1000, 3) + [exec_line(0x1000)] + block(0x1000, 5) + [exec_line(0x1000)]
        self.assertEqual(qemu_insn_ratio.count_instructions(fake_qemu(log))[0], 8)

    def test_an_exec_line_right_after_a_listing_ends_it(self):
        log = block(0x1000, 4)[:-1] + [exec_line(0x1000)]  # no blank line between
        self.assertEqual(qemu_insn_ratio.count_instructions(fake_qemu(log))[0], 4)

    def test_a_block_executed_but_never_listed_is_refused(self):
        log = block(0x1000, 3) + [exec_line(0x1000), exec_line(0x3000)]
        with self.assertRaises(SystemExit) as e:
            qemu_insn_ratio.count_instructions(fake_qemu(log))
        self.assertIn("without their in_asm listing", str(e.exception.code))

    def test_a_log_without_exec_lines_is_refused(self):
        with self.assertRaises(SystemExit) as e:
            qemu_insn_ratio.count_instructions(fake_qemu(block(0x1000, 3)))
        self.assertIn("no instructions counted", str(e.exception.code))

    def test_a_failing_program_is_refused(self):
        with self.assertRaises(SystemExit) as e:
            qemu_insn_ratio.count_instructions(fake_qemu(block(0x1000, 3) + [exec_line(0x1000)], status=3))
        self.assertIn("exited with 3", str(e.exception.code))


if __name__ == "__main__":
    unittest.main()
