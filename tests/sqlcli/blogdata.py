"""A deterministic blog in one table, for the SQL tests: "Blog" with PK/SK strings and the GSI
"ByAuthor" (authorId, createdAt), authors `PK=USER#n, SK=META, name=…` and posts
`PK=POST#m, SK=POST#m` carrying `authorId` (the author's PK) and `authorName`, a copy of the
author's name that has drifted on a known set of posts. Also two small tables of numbers ("Nums",
"Refs") for exact arithmetic and numeric JOINs,
and "Series", those numbers as an N sort key. Only the standard library is used.

The drift rules (post m, author a = author_of(m)):
  - orphan  m % 1499 == 2: authorId points at USER#0, which does not exist (no JOIN row);
  - missing m % 389 == 23: no authorName (drift unless the author has no name either);
  - old     m % 97 == 11:  authorName is the author's old name;
  - case    m % 1009 == 500: authorName in upper case (drift: the comparison is binary);
  - space   m % 1201 == 77: authorName with a trailing space;
  - bothnull: authors a % 500 == 250 have no name; their posts m % 3 == 0 have no authorName
    either (no drift: NULL IS NOT NULL is false), their other posts drift.
The first rule that applies wins. Everything else is an exact copy."""
import decimal
import json

FIRST = ["Mara", "Jonas", "Aiko", "Zoë", "Tomás", "Priya", "Olu", "Sven", "Leïla", "Chen", "Noor",
         "Bao", "Inès", "Kofi", "Élodie", "Ravi", "Hana", "Matteo", "Ayşe", "Björn", "Yara"]
LAST = ["Vance", "Okafor", "Lindqvist", "Ångström", "Ferreira", "Nakamura", "Dubois", "Kowalski",
        "Haddad", "O'Brien", "Müller", "Sato", "García", "Novak", "Quispe", "Abebe", "Černý"]

TABLE = "Blog"
KEY = "PK:S,SK:S"
GSI = "ByAuthor:authorId:S,createdAt:S"


def author_name(a):
    return f"{FIRST[a % len(FIRST)]} {LAST[(a * 7) % len(LAST)]} {a}"


def author_has_name(a):
    return a % 500 != 250


def author_of(m, authors):
    return 1 + (m * 7919) % authors


def created_at(m):
    # Distinct per post: seconds since 2024-01-01, as ISO 8601 text (sorts as time).
    s = m * 3607
    day, s = divmod(s, 86400)
    year = 2024 + day // 360
    month = (day % 360) // 30 + 1
    dom = day % 30 + 1
    return f"{year:04}-{month:02}-{dom:02}T{s // 3600:02}:{s // 60 % 60:02}:{s % 60:02}Z"


class Blog:
    """The blog of POSTS posts and AUTHORS authors: .items() yields DynamoDB JSON items,
    .drift the expected drift JOIN rows {(PK, SK, authorName or None, name or None)},
    .posts_by_author {USER#n: [post PKs]} (what the ByAuthor index holds per author)."""

    def __init__(self, posts=20000, authors=2000):
        self.n_posts = posts
        self.n_authors = authors
        self.drift = set()
        self.posts_by_author = {}
        self.kinds = {}
        self.rare_post = f"POST#{posts // 2 + 1}"  # the one item with the attribute rareAttr
        for m in range(1, posts + 1):
            a = author_of(m, authors)
            kind, author_id, copy = self._post_copy(m, a)
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            self.posts_by_author.setdefault(author_id, []).append(f"POST#{m}")
            if author_id == "USER#0":
                continue
            source = author_name(a) if author_has_name(a) else None
            if copy != source:
                self.drift.add((f"POST#{m}", f"POST#{m}", copy, source))

    @staticmethod
    def _post_copy(m, a):
        """(kind, authorId, authorName or None) of post m by author a."""
        name = author_name(a)
        if m % 1499 == 2:
            return "orphan", "USER#0", "Nobody"
        if not author_has_name(a) and m % 3 == 0:
            return "bothnull", f"USER#{a}", None
        if m % 389 == 23:
            return "missing", f"USER#{a}", None
        if m % 97 == 11:
            return "old", f"USER#{a}", f"{name.split(' ')[0]} Oldname {a}"
        if m % 1009 == 500:
            return "case", f"USER#{a}", name.upper()
        if m % 1201 == 77:
            return "space", f"USER#{a}", name + " "
        return "copy", f"USER#{a}", name

    def items(self):
        for a in range(1, self.n_authors + 1):
            item = {"PK": {"S": f"USER#{a}"}, "SK": {"S": "META"},
                    "email": {"S": f"author{a}@example.com"},
                    "joined": {"N": str(2015 + a % 10)}}
            if author_has_name(a):
                item["name"] = {"S": author_name(a)}
            yield item
        for m in range(1, self.n_posts + 1):
            a = author_of(m, self.n_authors)
            _, author_id, copy = self._post_copy(m, a)
            item = {"PK": {"S": f"POST#{m}"}, "SK": {"S": f"POST#{m}"},
                    "authorId": {"S": author_id}, "createdAt": {"S": created_at(m)},
                    "title": {"S": f"Post number {m}"}, "likes": {"N": str(m % 1000)}}
            if copy is not None:
                item["authorName"] = {"S": copy}
            if f"POST#{m}" == self.rare_post:
                item["rareAttr"] = {"S": "only here"}
            yield item

    def write_jsonl(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for item in self.items():
                f.write(json.dumps(item, ensure_ascii=False) + "\n")
        return path


# ---------------------------------------------------------------------------------------------
# Numbers: "Nums" (id -> x) and "Refs" (id -> ref, the same numbers written differently)

NUMS = {
    "big": "12345678901234567890123456789012345678",
    "nbig": "-12345678901234567890123456789012345678",
    "nines": "99999999999999999999999999999999999999",
    "tiny": "1E-130",
    "ntiny": "-1E-130",
    "huge": "9.9999999999999999999999999999999999999E+125",
    "nhuge": "-9.9999999999999999999999999999999999999E+125",
    "zero": "0",
    "half": "0.5",
    "one": "1",
    "two": "2",
    "onehalf": "1.5",
    "ten": "10",
    "neg325": "-3.25",
    "nhalf": "-0.5",
    "i64max": "9223372036854775807",
    "i64over": "9223372036854775808",
    "i64min": "-9223372036854775808",
    "i64under": "-9223372036854775809",
    "frac38": "0.12345678901234567890123456789012345678",
    "mixed38": "1234567890123456789.0123456789012345678",
    "close1": "12345678901234567890123456789012345677",
}

# Refs: ref is the number of Nums item `to`, written another way (or matching nothing).
REFS = {
    "r1": ("1.0", "one"),
    "r2": ("0.50", "half"),
    "r3": ("1E1", "ten"),
    "r4": ("12345678901234567890123456789012345678", "big"),
    "r5": ("-3.250", "neg325"),
    "r6": ("1.0E-130", "tiny"),
    "r7": ("5", None),
    "r8": ("9223372036854775808.0", "i64over"),
    "r9": ("-0.5", "nhalf"),
}


def fits_int64(text):
    d = decimal.Decimal(text)
    return d == d.to_integral_value() and -2 ** 63 <= d < 2 ** 63


def nums_items():
    for k, v in NUMS.items():
        yield {"id": {"S": k}, "x": {"N": v}}


def refs_items():
    for k, (v, _) in REFS.items():
        yield {"id": {"S": k}, "ref": {"N": v}}


def series_items():
    """"Series": the same numbers as the sort key (N) of one partition "s"."""
    for k, v in NUMS.items():
        yield {"pk": {"S": "s"}, "sk": {"N": v}, "id": {"S": k}}


def write_items(path, items):
    with open(path, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item) + "\n")
    return path


if __name__ == "__main__":
    import sys
    b = Blog(int(sys.argv[1]) if len(sys.argv) > 1 else 20000,
             int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    print(len(b.drift), "drifted", b.kinds)
