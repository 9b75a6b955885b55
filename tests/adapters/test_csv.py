"""CSV files: mixed columns, missing values, delimiters, encodings and broken files."""
import os
import threading

import numpy as np
import pandas as pd
import pytest

from adapters import InputError, from_frame, load_dataset

MIXED = """\
age,job,income,smoker,label
34,engineer,52000.5,yes,good
51,teacher,,no,bad
29,,31000,no,good
45,engineer,61000,yes,bad
38,nurse,NA,no,good
62,teacher,45000,yes,bad
,nurse,39000,no,good
27,engineer,58000,?,bad
"""


def _write(tmp_path, text, name="data.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


def test_mixed_csv(tmp_path):
    ds = load_dataset(_write(tmp_path, MIXED), target="label")
    assert ds.name == "data"
    assert ds.numeric == ("age", "income") and ds.categorical == ("job", "smoker")
    assert ds.X["income"].isna().sum() == 2 and np.isnan(ds.X["age"][6])
    assert ds.X["job"].tolist()[:3] == ["engineer", "teacher", ds.X["job"][2]]
    assert ds.X["smoker"].isna().sum() == 1
    assert ds.class_names == ("bad", "good")        # a tie: the later label is positive
    assert ds.y.tolist() == [1, 0, 1, 0, 1, 0, 1, 0]


def test_csv_path_as_string_and_positive(tmp_path):
    ds = load_dataset(str(_write(tmp_path, MIXED)), target="label", positive="bad")
    assert ds.class_names == ("good", "bad") and ds.y[0] == 0


def test_csv_needs_target(tmp_path):
    with pytest.raises(InputError, match="target.*'age'"):
        load_dataset(_write(tmp_path, MIXED))


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_other_delimiters(tmp_path, delimiter):
    ds = load_dataset(_write(tmp_path, MIXED.replace(",", delimiter)), target="label")
    assert ds.X.shape == (8, 4)
    assert any("delimiter" in n for n in ds.notes)


def test_excels_sep_line_names_the_delimiter(tmp_path):
    # the first line is not the header: read as one, it made every row a ragged one
    text = "\ufeffsep=;\r\nx;c;t\r\n1,5;u;yes\r\n2,5;v;no\r\n3,5;u;yes\r\n4,5;v;no\r\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.X["x"].tolist() == [1.5, 2.5, 3.5, 4.5] and ds.X["c"].tolist() == ["u", "v"] * 2
    assert "read the delimiter ';' from data.csv's first line ('sep=;')" in ds.notes
    # a "|" file whose header has a comma: the declared delimiter, not the sniffed one
    text = "SEP=|\na,b|t\n1|x\n2|y\n3|x\n4|a,b|c\n"
    with pytest.raises(InputError, match="line 6 has 3 fields, the header 2"):
        load_dataset(_write(tmp_path, text), target="t")


def test_bom_and_spaces_after_commas(tmp_path):
    text = "\ufeffa, b, t\n1, x, 0\n2, y, 1\n3, x, 1\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert list(ds.X.columns) == ["a", "b"] and ds.X["b"].tolist() == ["x", "y", "x"]


def test_latin1_file(tmp_path):
    text = "city,t\nZürich,0\nGenève,1\nBern,1\n"
    ds = load_dataset(_write(tmp_path, text, encoding="latin-1"), target="t")
    assert ds.X["city"].tolist() == ["Zürich", "Genève", "Bern"]
    assert "read data.csv as Windows-1252 (it is not valid UTF-8)" in ds.notes


def test_windows_1252_and_stray_bytes_in_utf8(tmp_path):
    rows = "".join(f"{c},{i % 2}\n" for i, c in enumerate(["€", "$", "€", "$"]))
    ds = load_dataset(_write(tmp_path, "cur,t\n" + rows, encoding="cp1252"), target="t")
    assert ds.X["cur"].tolist() == ["€", "$", "€", "$"]
    utf8 = ("city,t\nZürich,0\nGenève,1\n").encode() + b"caf\xe9,1\n"
    ds = load_dataset(_write(tmp_path, utf8), target="t")
    assert ds.X["city"].tolist() == ["Zürich", "Genève", "café"]
    assert ("read data.csv as UTF-8 but for 1 byte(s) that are not UTF-8 (the first on "
            "line 4), read as Windows-1252") in ds.notes


def test_line_endings_blank_lines_and_unnamed_columns(tmp_path):
    text = "\n\n a,,t\r1,x,0\r2,y,1\r3,x,1\r"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert list(ds.X.columns) == ["a", "Unnamed: 1"] and ds.X["a"].tolist() == [1, 2, 3]
    assert "skipped 2 blank line(s) before data.csv's header" in ds.notes
    assert "header fields 2 ('Unnamed: 1') of data.csv are empty: named as pandas names them" \
        in ds.notes
    # an error names the line of the file, the blank lines counted
    for bad, line in (("\n\n# comment\na,b,t\n1,2,0\n", 4), ("\n\na,t\n1,0\n2,0,5\n", 5)):
        with pytest.raises(InputError, match=f"line {line} has"):
            load_dataset(_write(tmp_path, bad), target="t")


def test_an_empty_first_header_field_is_noted(tmp_path):
    text = ",b,t\n" + "".join(f"{i * 3 % 7},{i},{i % 2}\n" for i in range(12))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert "Unnamed: 0" in ds.X.columns  # not a row index: kept, under pandas' name
    assert ("header fields 1 ('Unnamed: 0') of data.csv are empty: named as pandas names "
            "them") in ds.notes
    for header in ('" ",b,t\n', ' ,b,t\n', '"",b,t\n'):  # a quoted blank was named ''
        ds = load_dataset(_write(tmp_path, header + text.split("\n", 1)[1]), target="t")
        assert list(ds.X.columns) == ["Unnamed: 0", "b"], header


def test_a_carriage_return_inside_a_quoted_field_is_kept(tmp_path):
    for end in ("\n", "\r\n"):  # more CRs in fields than line ends, and one in the header
        text = end.join(['x,"t\rx"', '1,"a\rb\rc"', '2,c', '3,"a\rb\rc"', '4,c']) + end
        ds = load_dataset(_write(tmp_path, text), target="t\rx")
        assert ds.target == "t\rx" and set(ds.class_names) == {"a\rb\rc", "c"}
    # an old Mac file: lines end in lone CRs, and a quoted field may hold one too
    mac = '"x","t"\r1,"a\rb"\r2,c\r3,"a\rb"\r4,c\r'
    ds = load_dataset(_write(tmp_path, mac), target="t")
    assert ds.X["x"].tolist() == [1, 2, 3, 4] and set(ds.class_names) == {"a\nb", "c"}


def test_numbers_written_with_leading_zeros_are_noted(tmp_path):
    # pandas reads the zip code 00501 as 501 without a word
    text = "zip;amount;t\n" + "".join(f"{z};{a};{i % 2}\n" for i, (z, a) in enumerate(
        [("00501", "0.5"), ("90210", "0"), ("02134", "10"), ("10001", "7")]))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.X["zip"].tolist()[:2] == [501.0, 90210.0]
    note = ("column 'zip' has numbers written with leading zeros, read as numbers ('00501' "
            "is 501); if they are codes rather than quantities, write them with a letter "
            "(e.g. 'z00501') to compare them as categories")
    assert [n for n in ds.notes if "leading zeros" in n] == [note]  # 0.5 and 0 are plain
    frame = pd.DataFrame({"zip": ["00501", "90210", "02134", "10001"], "t": [0, 1, 0, 1]})
    assert note in from_frame(frame, "t").notes  # text in a DataFrame: the same note
    # a target's labels are not codes to rewrite: the note says which class each became
    labels = load_dataset(_write(tmp_path, "x,t\n1,01\n2,02\n3,01\n4,02\n"), target="t")
    assert [n for n in labels.notes if "leading zeros" in n] == [
        "target 't': labels written with leading zeros are read as numbers ('01' is the "
        "class '1')"]



def test_leading_zeros_are_noted_among_fractions_and_negative_numbers(tmp_path):
    # only columns holding a whole number not below 0 are read again as written
    text = "dose,code,t\n" + "".join(f"{d},{c},{i % 2}\n" for i, (d, c) in enumerate(
        [("-1.5", "0.25"), ("2.75", "-3"), ("0.5", "0012"), ("-0.0", "7.5")]))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert [n for n in ds.notes if "leading zeros" in n] == [
        "column 'code' has numbers written with leading zeros, read as numbers ('0012' is "
        "12); if they are codes rather than quantities, write them with a letter (e.g. "
        "'z0012') to compare them as categories"]


def test_a_target_code_with_and_without_leading_zeros_is_two_classes(tmp_path):
    # '01' and '1' were read as one number, then "has a single class ('1')", no note
    ds = load_dataset(_write(tmp_path, "x,t\n1,01\n2,1\n3,01\n4,1\n5,1\n"), target="t")
    assert ds.class_names == ("1", "01") and ds.y.tolist() == [1, 0, 1, 0, 0]  # '01' fewer
    assert ds.notes[0] == ("target 't': '01', '1' are one number written with and without "
                           "leading zeros: read as written (codes), as distinct classes")
    assert not any("read as numbers" in n for n in ds.notes)
    framed = from_frame(pd.DataFrame({"x": range(5), "t": ["01", "1", "01", "1", "1"]}), "t")
    assert framed.class_names == ("1", "01")  # text in a DataFrame: the same classes
    # missing labels (a float column) alike; '1.0' and '1' stay one number
    ds = load_dataset(_write(tmp_path, "x,t\n1,01\n2,1\n3,\n4,1\n5,01\n6,01\n"),
                      target="t")
    assert ds.class_names == ("01", "1") and ds.y.tolist() == [0, 1, 1, 0, 0]
    with pytest.raises(InputError, match=r"has a single class \('1'\) \(labels written "
                                         r"differently for the same number are one: '1.0' = "
                                         r"'1'\); a classifier needs at least two"):
        from_frame(pd.DataFrame({"x": range(4), "t": ["1.0", "1"] * 2}), "t")


@pytest.mark.parametrize("written, names", [
    (["TRUE", "FALSE", "TRUE"], ("FALSE", "TRUE")),   # as R writes them: was True/False
    (["TRUE", "", "FALSE"], ("FALSE", "TRUE")),       # a missing label (objects in pandas)
    (["TRUE", "true", "False"], ("False", "True")),   # spelled two ways: one class each value
    (["TRUE", "true", "false"], ("False", "True")),
    (["TRUE", "FALSE", "false"], ("False", "True")),
])
def test_a_boolean_target_keeps_its_spelling_when_each_value_has_one(tmp_path, written,
                                                                     names):
    text = "x,t\n" + "".join(f"{i},{written[i % 3]}\n" for i in range(12))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.class_names == names and ds.class_names[1].lower() == "true"
    assert ds.y.tolist()[:2] == ([1, 0] if written[1] != "true" else [1, 1])
    merged = [n for n in ds.notes if "spelled apart" in n]
    spellings = {}
    for w in dict.fromkeys(w for w in written if w):
        spellings.setdefault(w.lower(), []).append(w)
    groups = [f"{', '.join(repr(w) for w in ws)} as {ws[0].capitalize()!r}"
              for ws in spellings.values() if len(ws) > 1]
    assert merged == ([f"target 't': labels spelled apart are one class: {'; '.join(groups)} "
                       "(the reader takes each spelling of true and false for the same value)"]
                      if groups else [])


def test_a_dot_that_looks_like_a_thousands_separator_is_noted(tmp_path):
    # "1.381" beside "950" in a semicolon file: 1381 written the European way
    text = "amount;t\n" + "".join(f"{v};{i % 2}\n" for i, v in enumerate(
        ["1.381", "950", "2.040", "120", "3.500", "75"]))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.X["amount"].tolist()[:2] == [1.381, 950.0]
    assert ("column 'amount': every number with a '.' has three digits after it (e.g. "
            "'1.381') and the others have none, as if '.' separated thousands; they were "
            "read with '.' as the decimal point: remove the '.' if it separates thousands"
            ) in ds.notes
    decimals = "v;t\n" + "".join(f"{v};{i % 2}\n" for i, v in enumerate(
        ["1.250", "2.125", "0.375", "1.5"]))
    assert not any("thousands" in n for n in load_dataset(_write(tmp_path, decimals),
                                                           target="t").notes)


def test_a_row_with_too_few_fields_is_refused(tmp_path):
    # pandas fills the last fields: the row's values would sit in other columns
    text = "x,c,score,label\n1,a,0.5,y\n2,0.7,n\n3,a,0.1,y\n\n"
    with pytest.raises(InputError, match="line 3 has 3 fields, the header 4"):
        load_dataset(_write(tmp_path, text), target="label")


@pytest.mark.parametrize("cell", ["b", '"b"', '"b\nc"'])
def test_a_row_of_other_fields_is_named_by_its_line_with_or_without_quotes(tmp_path, cell):
    # a file without quotes is checked line by line, one with quotes record by record
    lines = cell.count("\n")
    text = f"x,c,t\n1,{cell},y\n2,a,n,\n3,a,y,\n4,a,n,,\n5,a,y\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert any("empty fields after the header's 3 fields on 3 data row(s)" in n
               for n in ds.notes)
    for bad, fields in (("2,a,n,7", 4), ("2,a", 2)):
        text = f"x,c,t\n1,{cell},y\n5,a,y\n{bad}\n"
        with pytest.raises(InputError, match=f"line {4 + lines} has {fields} fields, the "
                                             f"header 3"):
            load_dataset(_write(tmp_path, text), target="t")


def test_duplicate_header_names(tmp_path):
    with pytest.raises(InputError, match="duplicate column names: 'a'"):
        load_dataset(_write(tmp_path, "a,b,a,t\n1,2,3,0\n4,5,6,1\n"), target="t")


def test_saved_index_column_dropped(tmp_path):
    text = ",x,t\n0,1.5,0\n1,2.5,1\n2,0.5,0\n3,1.0,1\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert list(ds.X.columns) == ["x"]


def test_delimiter_ending_each_data_row_shifts_no_column(tmp_path):
    text = "x,c,label\n" + "".join(f"{i}.5,{'ab'[i % 2]},{'yn'[i % 3 == 0]},\n"
                                    for i in range(12))
    ds = load_dataset(_write(tmp_path, text), target="label")
    assert list(ds.X.columns) == ["x", "c"] and ds.X["x"][1] == 1.5
    assert set(ds.class_names) == {"y", "n"} and ds.X["c"][1] == "b"
    assert any("empty fields after the header's 3 fields on 12 data row(s)" in n
               for n in ds.notes)


@pytest.mark.parametrize("ends", [(",", "", ",", ""), (",,", ",,", ",,", ",,"),
                                  ("", ",, ", "", "")])
def test_empty_fields_after_the_last_one_on_some_rows_are_dropped(tmp_path, recwarn, ends):
    rows = ["1.5,a,y", "2.5,b,n", "0.5,a,y", "3.5,b,n"]
    text = "x,c,label\n" + "".join(r + e + "\n" for r, e in zip(rows, ends))
    ds = load_dataset(_write(tmp_path, text), target="label")
    assert list(ds.X.columns) == ["x", "c"] and list(ds.X["x"]) == [1.5, 2.5, 0.5, 3.5]
    assert list(ds.X["c"]) == ["a", "b", "a", "b"]
    n = sum(e.strip() != "" for e in ends)
    assert any(f"on {n} data row(s)" in note for note in ds.notes)
    assert not [w for w in recwarn if "Length of header" in str(w.message)]


def test_extra_field_with_a_value_is_refused(tmp_path):
    text = "x,c,label\n1,a,y,\n2,b,n,7\n3,a,y,\n"
    with pytest.raises(InputError, match="line 3 has 4 fields, the header 3"):
        load_dataset(_write(tmp_path, text), target="label")


def test_missing_value_words_are_noted(tmp_path):
    text = "alley,n,t\n" + "".join(f"{w},{v},{i % 2}\n" for i, (w, v) in enumerate(
        [("None", "1"), ("Pave", "NA"), ("Grvl", "3"), ("None", "#N/A"), ("Pave", "5"),
         ("", "6")]))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.X["alley"].isna().sum() == 3 and ds.X["n"].isna().sum() == 2
    assert "column 'alley': 2 values 'None' read as missing" in ds.notes
    assert "column 'n': 2 values 'NA', '#N/A' read as missing" in ds.notes
    assert ds.numeric == ("n",)


def test_cells_of_spaces_alone_are_counted_as_missing(tmp_path):
    # Telco's TotalCharges: ' ' among numbers; the reader made them empty, without a word
    rows = [("1.5", " ", "0"), (" ", "a", "1"), ("3", "b", " "), ("", "a", "0")]
    rows += [(str(i), "ab"[i % 2], str(i % 2)) for i in range(4, 14)]
    text = "x,c,t\n" + "".join(",".join(r) + "\n" for r in rows)
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.numeric == ("x",) and ds.X["x"].isna().sum() == 2  # ' ' and ''
    assert ds.X["x"].tolist()[:1] == [1.5] and ds.X["c"].isna().sum() == 1
    assert "column 'x': 1 value ' ' read as missing" in ds.notes
    assert "column 'c': 1 value ' ' read as missing" in ds.notes
    assert "dropped 1 row with a missing value in target 't'" in ds.notes
    # a quoted field after a space splits otherwise without the reader's spaces: no note
    quoted_after = text.replace("4,a,0", '4, "a,b",0')
    ds = load_dataset(_write(tmp_path, quoted_after), target="t")
    assert ds.X["x"].isna().sum() == 2 and ds.X["c"].tolist()[3] == "a,b"
    assert not any("' '" in n for n in ds.notes)


def test_semicolon_file_with_decimal_commas(tmp_path):
    text = "temp;dose;t\n38,2;1.5;a\n36,9;2.5;b\n37,5;0.5;a\n39,1;3;b\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.numeric == ("temp", "dose")
    assert ds.X["temp"].tolist() == [38.2, 36.9, 37.5, 39.1]
    assert ds.X["dose"].tolist() == [1.5, 2.5, 0.5, 3.0]


@pytest.mark.parametrize("word", ["?", "NA", "n/a"])
def test_decimal_commas_beside_a_missing_value_word(tmp_path, word):
    # pandas leaves '38,2' as text when the column also holds '?'
    text = f"temp;code;t\n38,2;1,5x;a\n{word};2,5x;b\n37,5;0,5x;a\n39,1;3x;b\n"
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.numeric == ("temp",) and ds.categorical == ("code",)
    assert ds.X["temp"].tolist()[::2] == [38.2, 37.5] and ds.X["temp"].isna().sum() == 1
    assert f"column 'temp': 1 value {word!r} read as missing" in ds.notes
    assert ds.X["code"].tolist() == ["1,5x", "2,5x", "0,5x", "3x"]  # not numbers: as written


def test_decimal_commas_with_thousands_separators_stay_text(tmp_path):
    # '1.234,5' among '12,5's: not read as numbers with the large ones missing
    amounts = [f"{i},5" for i in range(19)] + ["1.234,5"]
    text = "amount;x;t\n" + "".join(f"{a};{i};{i % 2}\n" for i, a in enumerate(amounts))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert "amount" not in ds.numeric
    # the example shows what keeps them text: '0,5' alone reads as a number in this file
    assert any("'amount' holds numbers written as text (e.g. '1.234,5')" in n
               for n in ds.notes)


def test_numbers_in_digits_other_than_ascii_are_categories_with_a_note(tmp_path):
    # full-width and Arabic-Indic digits: categories, as before, but no longer silently
    digits = ["１２", "３", "٤٥", "6", "7.5"] * 4
    text = "n,w,t\n" + "".join(f"{d},{w},{i % 2}\n" for i, (d, w) in enumerate(
        zip(digits, ["é", "b"] * 10)))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.categorical == ("n", "w")
    other = [n for n in ds.notes if "digits other than 0-9" in n]
    assert other == ["column 'n' holds numbers written with digits other than 0-9 (e.g. "
                     "'１２'), read as categories; write them with the digits 0-9 to use them "
                     "as numbers"]  # not for 'w', whose non-ASCII text is no number


@pytest.mark.parametrize("values", [["1,200", "3,400", "2,100", "900"],
                                    ["12%", "40%", "7.5%", "3%"],
                                    ["$12", "$40", "$7.5", "$3"]])
def test_numbers_written_as_text_are_noted(tmp_path, values):
    text = "amount,t\n" + "".join(f'"{v}",{i % 2}\n' for i, v in enumerate(values))
    ds = load_dataset(_write(tmp_path, text), target="t")
    assert ds.categorical == ("amount",)
    assert any("'amount' holds numbers written as text" in n for n in ds.notes)


@pytest.mark.parametrize("content, match", [
    ("a,b,t\n1,2,0\n3,4,5,6,7\n", "could not parse"),
    ('a,b,t\n1,"2,0\n', "could not parse"),
    ("", "is empty"),
    ("   \n\n", "is empty"),
    (b"\x00\x01PK\x03\x04binary", "not a text CSV"),
    ("a,b,t\n", "empty"),
])
def test_broken_files(tmp_path, content, match):
    with pytest.raises(InputError, match=match) as info:
        load_dataset(_write(tmp_path, content), target="t")
    assert "\n" not in str(info.value)


def test_missing_file_and_unknown_name(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_dataset(tmp_path / "nope.csv", target="t")
    with pytest.raises(InputError, match="breast_cancer, wine, iris"):
        load_dataset("titanic")
    with pytest.raises(InputError, match="is a directory"):
        load_dataset(tmp_path, target="t")
    # a device is refused (reading /dev/zero would never end), not called missing
    with pytest.raises(InputError, match="'/dev/zero' is not a file but a device"):
        load_dataset("/dev/zero", target="t")


def test_a_named_pipe_is_read(tmp_path):
    # `--data <(zcat data.csv.gz)` hands over a pipe: it exists but is no regular file
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("x,t\n1,a\n2,b\n3,a\n4,b\n",))
    writer.start()
    ds = load_dataset(fifo, target="t")
    writer.join()
    assert ds.X["x"].tolist() == [1.0, 2.0, 3.0, 4.0]


def test_numbers_beyond_32_bit_floats(tmp_path):
    big = "x,t\n" + "".join(f"{v},{i % 2}\n" for i, v in enumerate([1e39, 2.0, 3.0, 4.0]))
    with pytest.raises(InputError, match="column 'x' holds numbers beyond ±3.4e38"):
        load_dataset(_write(tmp_path, big), target="t")
    close = "x,t\n" + "".join(f"{1000 + 1e-6 * i!r},{i % 2}\n" for i in range(20))
    ds = load_dataset(_write(tmp_path, close), target="t")
    assert "column 'x': 20 distinct values are only 1 in 32-bit floats" in ds.notes[-1]



@pytest.mark.parametrize("dtype", ["int64", "uint64", "Int64", "text"])
def test_integers_a_float_cannot_tell_apart_are_codes(dtype):
    # 2**53 + 1 and 2**53 are one float64: read as numbers, the column was one value,
    # dropped, although it decides the target
    codes = [2**53 + 1, 2**53] * 10
    column = ([f" {c}" for c in codes] if dtype == "text"
              else pd.Series(codes, dtype=dtype))
    frame = pd.DataFrame({"code": column, "t": ["yes", "no"] * 10})
    ds = from_frame(frame, "t")
    assert ds.categorical == ("code",)
    assert sorted(ds.X["code"].unique()) == ["9007199254740992", "9007199254740993"]
    assert ("column 'code' holds integers too large for a 64-bit float to tell apart "
            "(e.g. 9007199254740992); read as categories, as codes") in ds.notes
    # large integers a float holds apart stay numbers
    exact = pd.DataFrame({"n": [2**60, 2**61] * 10, "t": ["yes", "no"] * 10})
    assert from_frame(exact, "t").categorical == ()

def test_utf16_file(tmp_path):
    text = "city,t\nZürich,0\nGenève,1\nBern,1\n"
    ds = load_dataset(_write(tmp_path, text, encoding="utf-16"), target="t")
    assert ds.X["city"].tolist() == ["Zürich", "Genève", "Bern"]
    assert "read data.csv as UTF-16" in ds.notes


def test_values_given_as_missing_become_missing_in_every_kind_of_column():
    frame = pd.DataFrame({"n": [1.0, -999.0, 3.0, 4.0], "s": ["a", " -999", "b", "unknown"],
                          "b": [True, False, True, False], "t": [0, 1, 0, 1]})
    ds = from_frame(frame, "t", missing=[-999, "unknown"])
    assert ds.X["n"].isna().tolist() == [False, True, False, False]
    assert ds.X["s"].isna().tolist() == [False, True, False, True]
    assert ds.X["b"].notna().all()  # False is not a missing marker
    assert "column 's': 2 values ' -999', 'unknown' read as missing, as asked" in ds.notes
    assert "column 'n': 1 value '-999' read as missing, as asked" in ds.notes  # not -999.0
    assert from_frame(frame, "t", missing=[0, 1]).y.tolist() == [0, 1, 0, 1]  # not the target
    # one value is one value, not its characters; a value found nowhere is said so
    ds = from_frame(frame, "t", missing="-999")
    assert ds.X["n"].isna().sum() == 1 and ds.X["s"].isna().sum() == 1
    assert from_frame(frame, "t", missing=-999).X["n"].isna().sum() == 1
    assert "no feature value is '-99', given as missing" in from_frame(
        frame, "t", missing=["-99", "unknown"]).notes


def test_a_value_given_as_missing_matches_it_written_in_another_unicode_form():
    # 'não' typed with 'a' and a tilde (as a Mac may) was "no feature value is 'não'"
    frame = pd.DataFrame({"s": ["n\u00e3o", "sim", "sim", "n\u00e3o"], "x": [1.0, 2, 3, 4],
                          "t": [0, 1, 0, 1]})
    ds = from_frame(frame, "t", missing=["na\u0303o"])
    assert ds.X["s"].isna().tolist() == [True, False, False, True]
    assert not any(n.startswith("no feature value is") for n in ds.notes)


def test_spaces_around_column_names_are_noted_and_collisions_named(tmp_path):
    # "score " and "score" became two columns named 'score': "duplicate column names"
    with pytest.raises(InputError, match="column names 'score ', 'score' are the same once "
                                         "the spaces around them are removed"):
        load_dataset(_write(tmp_path, "score ,score,y\n1,2,0\n2,3,1\n3,4,0\n"), target="y")
    ds = load_dataset(_write(tmp_path, "a ,b\t,y\n1,2,0\n2,3,1\n3,4,0\n4,5,1\n"), target="y")
    assert list(ds.X.columns) == ["a", "b"]
    assert "removed the spaces around column names 'a ', 'b\\t'" in ds.notes


def test_a_duration_column_is_numeric_in_seconds():
    # it became categories ("0 days 01:00:00"), one IMLI literal per value
    frame = pd.DataFrame({"wait": pd.to_timedelta([60, 90, None, 3600], unit="s"),
                          "t": [0, 1, 0, 1]})
    ds = from_frame(frame, "t")
    assert ds.categorical == () and ds.X["wait"].tolist()[:2] == [60.0, 90.0]
    assert np.isnan(ds.X["wait"][2])
    assert "column 'wait' holds durations, read as seconds" in ds.notes


@pytest.mark.parametrize("labels, names", [
    (("1e-400", "0"), ("0", "1e-400")),        # both 0.0 as floats
    (("1e400", "1e401"), ("1e400", "1e401")),  # both inf: were dropped as missing
    (("9007199254740993.0", "9007199254740992.0"),
     ("9007199254740992.0", "9007199254740993.0")),
])
def test_target_labels_one_float_would_merge_are_read_as_written(tmp_path, labels, names):
    rows = "".join(f"{i},{labels[i % 2]}\n" for i in range(8))
    ds = load_dataset(_write(tmp_path, "x,t\n" + rows), target="t")
    assert ds.class_names == names and sorted(ds.y.tolist()) == [0] * 4 + [1] * 4
    assert any("labels a 64-bit float cannot tell apart" in n for n in ds.notes)
    plain = load_dataset(_write(tmp_path, "x,t\n" + "".join(
        f"{i},{i % 2}.0\n" for i in range(8))), target="t")
    assert plain.class_names == ("0", "1")  # numbers one float holds: as before
    assert not any("cannot tell apart" in n for n in plain.notes)
    spaced = load_dataset(_write(tmp_path, 'x," t "\n' + rows), target="t")  # header as read
    assert spaced.class_names == names


def test_a_comment_line_taken_for_the_header_is_named(tmp_path):
    with pytest.raises(InputError, match=r"line 2 has 3 fields, the header 1\).*; its first "
                                         r"line, read as the header, starts with '#': remove "
                                         r"the comment lines above the header$"):
        load_dataset(_write(tmp_path, "# exported by X\nx,c,t\n1,a,y\n2,b,n\n"), target="t")
    named = load_dataset(_write(tmp_path, "#id,t\n1,y\n2,n\n3,y\n"), target="t")
    assert list(named.X.columns) == ["#id"]  # a header may start with '#'


def test_target_labels_respelled_as_numbers_are_noted_once(tmp_path):
    # '1e3' became the class '1000', and '1.0' beside '1' one class '1', without a word
    ds = load_dataset(_write(tmp_path, "x,t\n1,1e3\n2,0\n3,1e3\n4,0.0\n5,1E3\n"), "t")
    assert sorted(ds.class_names) == ["0", "1000"]
    said = [n for n in ds.notes if "plain form" in n]
    assert said == ["target 't': labels are numbers, shown in their plain form ('1e3' as "
                    "'1000', '0.0' as '0', '1E3' as '1000')"]
    plain = load_dataset(_write(tmp_path, "x,t\n1,1\n2,0\n3,1\n4,\n5,2.5\n"), "t")
    assert not any("plain form" in n for n in plain.notes)  # as written, missing or not


def test_target_labels_with_a_decimal_comma_respelled_are_noted(tmp_path):
    ds = load_dataset(_write(tmp_path, "x;t\n1;1,0\n2;0,0\n3;1,0\n4;0,0\n"), "t")
    assert sorted(ds.class_names) == ["0", "1"]
    said = [n for n in ds.notes if "plain form" in n]
    assert said == ["target 't': labels are numbers, shown in their plain form ('1,0' as "
                    "'1', '0,0' as '0')"]
    plain = load_dataset(_write(tmp_path, "x;t\n1;1\n2;0,5\n3;1\n"), "t")
    assert not any("plain form" in n for n in plain.notes)  # '0,5' shows as 0.5


def test_values_written_with_spaces_around_them_are_noted(tmp_path):
    # 'red ' and ' blue' (in quotes) became 'red' and 'blue' without a word
    text = 'x,c,t\n' + '1,red ,no \n2," blue",yes\n' * 3
    ds = load_dataset(_write(tmp_path, text), "t")
    assert sorted(set(ds.X["c"])) == ["blue", "red"] and ds.class_names == ("no", "yes")
    assert ("column 'c': values written with spaces around them are read without them "
            "(e.g. 'red ' as 'red')") in ds.notes
    assert ("target 't': labels written with spaces around them are read without them "
            "(e.g. 'no ' as 'no')") in ds.notes
    # spaces after the delimiter ('a, b' files) separate fields: nothing to say
    plain = load_dataset(_write(tmp_path, "x, c, t\n" + "1, red, no\n2, blue, yes\n" * 3), "t")
    assert not any("written with spaces" in n for n in plain.notes)
