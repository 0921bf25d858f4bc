"""RE2 patterns read by Python's `re` (for RegexFullMatch; not a kernel itself).

onnx names RE2's syntax. Python reads much of it the same way, but not all, so `to_python` rewrites a pattern
into one Python reads as RE2 does, or raises ValueError for what it cannot (or what RE2 itself rejects):

- rewritten: \\d \\w \\s and their negations, \\b and \\B are ASCII in RE2 (Python's are Unicode; \\s is
  [\\t\\n\\f\\r ], without \\v); `$` outside multi-line mode is the end of the text only (Python's also matches
  before a final newline); \\z is Python's \\Z; \\Q...\\E quotes; \\x{h...} and octal escapes \\123; POSIX classes
  [:alpha:] ... inside brackets (ASCII); (?<name>...) names a group; a flag group (?i) after the start applies to
  the rest of its group (Python wants it scoped); `{` that starts no repetition ({,3} too) is a literal brace.
- rejected as RE2 does: backreferences (\\1), look-around ((?=, (?!, (?<=, (?<!), atomic and possessive forms,
  conditionals, comments ((?#), \\Z, \\C, \\G and other unknown escapes, repetition counts above 1000, a repetition
  of a repetition (a**), nothing to repeat.
- rejected because Python has no equivalent: Unicode classes (\\pL, \\p{Greek}), the ungreedy flag (?U), a negated
  POSIX class ([:^alpha:]) or \\D \\W \\S inside brackets.
- read alike but not guaranteed equal: case-insensitive matching of non-ASCII letters (Python's case folding and
  RE2's agree on ordinary letters; special ones such as the Kelvin sign may differ).

Nothing is evaluated: the result only goes to `re.compile`.
"""

from __future__ import annotations

import re

MAX_REPEAT = 1000  # RE2's bound on a repetition count
WORD = "0-9A-Za-z_"
SPACE = "\\t\\n\\f\\r "
PERL_CLASSES = {"d": "[0-9]", "D": "[^0-9]", "w": f"[{WORD}]", "W": f"[^{WORD}]", "s": f"[{SPACE}]",
                "S": f"[^{SPACE}]"}
IN_CLASS = {"d": "0-9", "w": WORD, "s": SPACE}
POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ", "cntrl": "\\x00-\\x1f\\x7f",
         "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
         "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": WORD,
         "xdigit": "0-9A-Fa-f"}
BOUNDARY = f"(?:(?<=[{WORD}])(?![{WORD}])|(?<![{WORD}])(?=[{WORD}]))"
NOT_BOUNDARY = f"(?:(?<=[{WORD}])(?=[{WORD}])|(?<![{WORD}])(?![{WORD}]))"
SIMPLE_ESCAPES = "aftnrv"
_REPEAT = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Group:
    """An open group: whether `$` is multi-line in it, and flag scopes opened inside it that its end closes."""

    def __init__(self, multiline: bool) -> None:
        self.multiline = multiline
        self.scopes: list[str] = []  # flag texts of (?flags) met at this level, each opened as "(?flags:"


class _Reader:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.at = 0
        self.out: list[str] = []
        self.groups = [_Group(multiline=False)]
        self.can_repeat = False  # the last item is something a quantifier may follow
        self.repeated = False  # ... and it already carries a quantifier

    def fail(self, why: str) -> ValueError:
        return ValueError(f"RegexFullMatch: pattern {self.text!r} at {self.at}: {why}")

    def peek(self, k: int = 0) -> str:
        i = self.at + k
        return self.text[i] if i < len(self.text) else ""

    def emit(self, text: str, *, item: bool = True) -> None:
        self.out.append(text)
        self.can_repeat, self.repeated = item, False

    def run(self) -> str:
        while self.at < len(self.text):
            self.step()
        if len(self.groups) != 1:
            raise self.fail("missing closing )")
        self.out.append(")" * len(self.groups[0].scopes))
        return "".join(self.out)

    def step(self) -> None:
        c = self.peek()
        if c == "\\":
            self.escape()
        elif c == "[":
            self.char_class()
        elif c == "(":
            self.open_group()
        elif c == ")":
            self.close_group()
        elif c == "|":
            self.alternative()
        elif c in "*+?":
            self.quantifier(c)
        elif c == "{":
            self.brace()
        elif c == "$":
            self.at += 1
            self.emit("$" if self.groups[-1].multiline else "\\Z", item=False)
        elif c in "^.":
            self.at += 1
            self.emit(c, item=c == ".")
        else:
            self.at += 1
            self.emit(_escaped(c))

    # ---- escapes outside brackets ----------------------------------------------------------------------

    def escape(self) -> None:
        c = self.peek(1)
        if c == "":
            raise self.fail("trailing backslash")
        self.at += 2
        if c in PERL_CLASSES:
            self.emit(PERL_CLASSES[c])
        elif c in "bB":
            self.emit(BOUNDARY if c == "b" else NOT_BOUNDARY, item=False)
        elif c == "A":
            self.emit("\\A", item=False)
        elif c == "z":
            self.emit("\\Z", item=False)
        elif c == "Q":
            end = self.text.find("\\E", self.at)
            literal = self.text[self.at:] if end < 0 else self.text[self.at:end]
            self.at = len(self.text) if end < 0 else end + 2
            if literal:
                self.emit("(?:" + re.escape(literal) + ")")
        elif c in "pP":
            raise self.fail(f"Unicode classes (\\{c}) have no equivalent in Python's re")
        else:
            self.emit(self.literal_escape(c))

    def literal_escape(self, c: str) -> str:
        """The Python text of an escape that stands for one character (self.at is past `\\c`)."""
        return _escaped(self.escaped_char(c))

    def escaped_char(self, c: str) -> str:
        """The character an escape `\\c...` stands for (self.at is past `\\c`; more digits are read)."""
        if c in SIMPLE_ESCAPES:
            return {"a": "\a", "f": "\f", "t": "\t", "n": "\n", "r": "\r", "v": "\v"}[c]
        if c == "x":
            return self.hex_escape()
        if c in "01234567":
            digits = c
            while len(digits) < 3 and self.peek() != "" and self.peek() in "01234567":
                digits += self.peek()
                self.at += 1
            if c != "0" and len(digits) < 3:
                raise self.fail(f"backreference \\{digits} (RE2 has none)")
            return chr(int(digits, 8))
        if c in "89":
            raise self.fail(f"backreference \\{c} (RE2 has none)")
        if c.isascii() and c.isalnum():
            raise self.fail(f"escape \\{c} is not RE2 syntax Python reads alike")
        return c

    def hex_escape(self) -> str:
        if self.peek() == "{":
            end = self.text.find("}", self.at)
            digits = self.text[self.at + 1:end] if end > 0 else ""
            self.at = end + 1
        else:
            digits = self.text[self.at:self.at + 2]
            self.at += 2
            if len(digits) != 2:
                digits = ""
        if not digits or not all(d in "0123456789abcdefABCDEF" for d in digits) or int(digits, 16) > 0x10FFFF:
            raise self.fail("bad \\x escape")
        return chr(int(digits, 16))

    # ---- brackets ----------------------------------------------------------------------------------------

    def char_class(self) -> None:
        self.at += 1
        parts = ["["]
        if self.peek() == "^":
            parts.append("^")
            self.at += 1
        first = True
        while True:
            c = self.peek()
            if c == "":
                raise self.fail("missing closing ]")
            if c == "]" and not first:
                self.at += 1
                break
            first = False
            if c == "[" and self.peek(1) == ":":
                parts.append(self.posix_class())
                continue
            low = self.class_item()
            if isinstance(low, str) and self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                high = self.class_item()
                if not isinstance(high, str):
                    raise self.fail("a class escape cannot end a range")
                if ord(low) > ord(high):
                    raise self.fail("bad character class range")
                parts.append(f"{_escaped(low)}-{_escaped(high)}")
            else:
                parts.append(_escaped(low) if isinstance(low, str) else low[0])
        self.emit("".join(parts) + "]")

    def class_item(self) -> str | tuple[str]:
        """One class item: the character it stands for (str), or a class escape's Python ranges (a 1-tuple)."""
        c = self.peek()
        self.at += 1
        if c != "\\":
            return c
        e = self.peek()
        if e == "":
            raise self.fail("trailing backslash")
        self.at += 1
        if e in IN_CLASS:
            return (IN_CLASS[e],)
        if e in "DWSpPbB":
            raise self.fail(f"\\{e} inside brackets has no equivalent in Python's re here")
        return self.escaped_char(e)

    def posix_class(self) -> str:
        end = self.text.find(":]", self.at + 2)
        name = self.text[self.at + 2:end] if end > 0 else ""
        if name.startswith("^"):
            raise self.fail("negated POSIX classes have no equivalent in Python's re")
        if name not in POSIX:
            raise self.fail(f"unknown POSIX class [:{name}:]")
        self.at = end + 2
        return POSIX[name]

    # ---- groups, alternatives, repetition ------------------------------------------------------------------

    def open_group(self) -> None:
        multiline = self.groups[-1].multiline
        if self.peek(1) != "?":
            self.at += 1
            self.groups.append(_Group(multiline))
            self.emit("(", item=False)
            return
        rest = self.text[self.at + 2:]
        if rest.startswith("P<") or (rest.startswith("<") and not rest.startswith(("<=", "<!"))):
            start = self.at + (4 if rest.startswith("P<") else 3)
            end = self.text.find(">", start)
            name = self.text[start:end] if end > 0 else ""
            if not _NAME.fullmatch(name):
                raise self.fail("bad group name")
            self.at = end + 1
            self.groups.append(_Group(multiline))
            self.emit(f"(?P<{name}>", item=False)
            return
        flags = re.match(r"([imsU]*)(?:-([imsU]*))?([:)])", rest)
        if flags is None or (flags.group(2) is not None and not flags.group(2)):
            raise self.fail("look-around, atomic groups, conditionals and comments are not RE2 syntax")
        on, off, end = flags.group(1), flags.group(2) or "", flags.group(3)
        if "U" in on + off:
            raise self.fail("the ungreedy flag (?U) has no equivalent in Python's re")
        if len(set(on + off)) != len(on + off) or not (on or off):
            raise self.fail("bad flag group")
        self.at += 2 + flags.end()
        if "m" in on:
            multiline = True
        elif "m" in off:
            multiline = False
        spec = on + (f"-{off}" if off else "")
        if end == ":":
            self.groups.append(_Group(multiline))
            self.emit(f"(?{spec}:", item=False)
            return
        group = self.groups[-1]  # (?flags): the rest of the enclosing group, across its alternatives
        group.multiline = multiline
        group.scopes.append(spec)
        self.emit(f"(?{spec}:", item=False)

    def close_group(self) -> None:
        if len(self.groups) == 1:
            raise self.fail("unmatched )")
        group = self.groups.pop()
        self.at += 1
        self.emit(")" * len(group.scopes) + ")")

    def alternative(self) -> None:
        group = self.groups[-1]
        self.at += 1
        # a flag scope ends at `|` and starts again in the next alternative, as RE2's (?flags) spans them
        self.emit(")" * len(group.scopes) + "|" + "".join(f"(?{s}:" for s in group.scopes), item=False)

    def quantifier(self, c: str) -> None:
        self.check_repeatable()
        self.at += 1
        self.append_repeat(c)

    def brace(self) -> None:
        found = _REPEAT.match(self.text, self.at)
        if found is None or found.group(1) == "":
            self.at += 1
            self.emit("\\{")  # no repetition: a literal brace, as RE2 reads it
            return
        low = int(found.group(1))
        high = low if found.group(2) is None else (int(found.group(3)) if found.group(3) else None)
        if low > MAX_REPEAT or (high is not None and (high > MAX_REPEAT or high < low)):
            raise self.fail("bad repetition count")
        self.check_repeatable()
        self.at = found.end()
        self.append_repeat(found.group(0))

    def check_repeatable(self) -> None:
        if not self.can_repeat:
            raise self.fail("nothing to repeat")
        if self.repeated:
            raise self.fail("a repetition of a repetition")

    def append_repeat(self, text: str) -> None:
        if self.peek() == "?":
            text += "?"
            self.at += 1
        if self.peek() == "+":
            raise self.fail("possessive repetition is not RE2 syntax")
        self.out.append(text)
        self.repeated = True


def _escaped(char: str) -> str:
    """One character as Python pattern text that stands for it alone (inside brackets too)."""
    if char.isascii() and (char.isalnum() or char == "_"):
        return char
    return f"\\U{ord(char):08x}" if not char.isprintable() or char in "\\]^-[&~|" else re.escape(char)


def to_python(pattern: str) -> str:
    """`pattern` (RE2 syntax) as a Python pattern that matches the same strings; ValueError where there is none."""
    return _Reader(pattern).run()


def compile_re2(pattern: str) -> re.Pattern[str]:
    translated = to_python(pattern)
    try:
        return re.compile(translated)
    except re.error as e:
        raise ValueError(f"RegexFullMatch: pattern {pattern!r} is not valid: {e}") from e
