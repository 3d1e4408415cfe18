#!/usr/bin/env python3
"""The docs say what the files say: every setting fuzz/README.md attributes to a target's .options file is in that
file, under the section it belongs to ([libfuzzer] flags written -key=value, [asan] keys in ASAN_OPTIONS). The README
once gave fuzz_api a -detect_leaks=0 that fuzz_api.options never had."""
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FUZZ = os.path.join(ROOT, "fuzz")


def options_file(target):
    """{(section, key): value} of fuzz/<target>.options."""
    out, section = {}, ""
    with open(os.path.join(FUZZ, f"{target}.options"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                section = line.strip("[]")
            elif "=" in line and not line.startswith("#"):
                key, _, value = line.partition("=")
                out[(section, key.strip())] = value.strip()
    return out


def documented_settings(text):
    """[(target, section, key, value)] the README gives as a target's .options settings: the code spans of the
    parenthesis after "`<target>.options`". ASAN_OPTIONS=a=1:b=0 gives [asan] keys; -key=value a [libfuzzer] flag."""
    found = []
    for m in re.finditer(r"`(fuzz_\w+)\.options`\s*\(([^)]*)\)", text):
        target = m.group(1)
        for span in re.findall(r"`([^`]*)`", m.group(2)):
            for word in span.split():
                if word.startswith("ASAN_OPTIONS="):
                    for item in word[len("ASAN_OPTIONS="):].split(":"):
                        key, _, value = item.partition("=")
                        found.append((target, "asan", key, value))
                elif re.match(r"^-\w+=", word):
                    key, _, value = word[1:].partition("=")
                    found.append((target, "libfuzzer", key, value))
    return found


class FuzzReadme(unittest.TestCase):
    def test_every_documented_option_is_in_its_file(self):
        with open(os.path.join(FUZZ, "README.md"), encoding="utf-8") as f:
            settings = documented_settings(f.read())
        self.assertTrue(settings, "the README states no .options settings: the test reads nothing")
        for target, section, key, value in settings:
            with self.subTest(target=target, key=key):
                self.assertEqual(options_file(target).get((section, key)), value,
                                 f"fuzz/README.md gives {target} [{section}] {key}={value}; {target}.options does not")

    def test_the_reader_finds_a_setting_the_file_lacks(self):
        text = "For `fuzz_api` use `fuzz_api.options` (`ASAN_OPTIONS=detect_stack_use_after_return=0 ... " \
               "-detect_leaks=0`; the reasons are in that file).\n"
        settings = documented_settings(text)
        self.assertEqual(settings, [("fuzz_api", "asan", "detect_stack_use_after_return", "0"),
                                    ("fuzz_api", "libfuzzer", "detect_leaks", "0")])
        self.assertNotIn(("libfuzzer", "detect_leaks"), options_file("fuzz_api"))


if __name__ == "__main__":
    unittest.main()
