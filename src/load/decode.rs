//! A data file's bytes as text: UTF-8 as it is, else the 8-bit code page its letters suggest (Windows-1252 unless another fits better), or the encoding an XML file declares.
//!
//! Pairing programs on Windows write TRF and CSV files in the system's
//! 8-bit code page: Windows-1252 in Western Europe, a superset of Latin-1
//! whose bytes 0x80-0x9F are letters and signs (Š, Ž, Œ, €) where Latin-1
//! has control characters; Windows-1250 in Central Europe, where byte 0xE6
//! is the `ć` of `Šarić` (Windows-1252 has no `ć`: the byte is `æ` there).
//! `chardetng` (Firefox's detector for unlabelled pages) tells them apart
//! from the letters the file uses; only single-byte code pages are taken
//! (anything else is read as Windows-1252), so every byte stays one
//! character and TRF columns, counted in characters, stay where the file
//! put them. A file mixing UTF-8 and 8-bit lines is read line by line.
//! A file that is UTF-8 (with or without a byte-order mark, which stays in
//! the text for the loaders to skip, as before) is never touched: the
//! common case costs one validation and no copy.

use crate::codes;
use crate::model::{Event, Warning};
use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, WINDOWS_1252};

/// The text of a data file and how it was read.
#[derive(Debug)]
pub struct Decoded {
    /// The text.
    pub text: String,
    /// How it was read.
    pub read_as: ReadAs,
}

/// How a file's bytes were read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadAs {
    /// UTF-8 throughout.
    Utf8,
    /// An XML file in the (8-bit) encoding its declaration names: nothing
    /// guessed, so nothing to tell.
    Declared(&'static Encoding),
    /// Not UTF-8: read in this 8-bit code page.
    Guessed(&'static Encoding),
    /// UTF-8 lines and 8-bit ones: each line read as UTF-8 where it is,
    /// else in the 8-bit code page `enc`.
    Mixed {
        /// The first line that is not UTF-8, from 1.
        first: usize,
        /// How many lines are not UTF-8.
        lines: usize,
        /// The code page of those lines.
        enc: &'static Encoding,
    },
}

/// `bytes` as text (see the module's documentation).
pub fn decode(bytes: Vec<u8>) -> Decoded {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => {
            return Decoded {
                text,
                read_as: ReadAs::Utf8,
            }
        }
        Err(e) => e.into_bytes(),
    };
    if let Some(enc) = xml_declared(&bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes);
        return Decoded {
            text: text.into_owned(),
            read_as: ReadAs::Declared(enc),
        };
    }
    let enc = code_page(&bytes);
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let (mut first, mut eight_bit, mut utf8) = (0, 0, 0);
    for (n, line) in lines(&bytes).enumerate() {
        match std::str::from_utf8(line) {
            Ok(s) => {
                utf8 += usize::from(!s.is_ascii());
                text.push_str(s);
            }
            Err(_) => {
                if eight_bit == 0 {
                    first = n + 1;
                }
                eight_bit += 1;
                text.push_str(&enc.decode_without_bom_handling(line).0);
            }
        }
    }
    let read_as = if utf8 == 0 {
        // No UTF-8 beyond ASCII: the whole file is 8-bit (and `text` is
        // what decoding it whole gives, ASCII being the same in both).
        ReadAs::Guessed(enc)
    } else {
        ReadAs::Mixed {
            first,
            lines: eight_bit,
            enc,
        }
    };
    Decoded { text, read_as }
}

impl ReadAs {
    /// Tell `ev` (loaded from the text read so) how it was read: a note
    /// for a file read as Windows-1252, a warning for a mixed one.
    pub fn tell(self, ev: &mut Event) {
        match self {
            ReadAs::Utf8 | ReadAs::Declared(_) => {}
            // First: how the file was read comes before what was ranked.
            ReadAs::Guessed(enc) => ev.notes.insert(
                0,
                format!(
                    "The data file is not UTF-8: it was read as {} (the 8-bit code page its letters suggest; saved as UTF-8, it is read as written)",
                    enc.name()
                ),
            ),
            ReadAs::Mixed { first, lines, enc } => {
                let more = match lines {
                    1 => String::new(),
                    2 => " (and 1 more line)".to_string(),
                    n => format!(" (and {} more lines)", n - 1),
                };
                ev.warnings.insert(
                    0,
                    Warning::new(
                        codes::LOAD_MIXED_ENCODING,
                        format!(
                            "the data file mixes UTF-8 and 8-bit text: line {first}{more} is not UTF-8 and was read as {}, the other lines as UTF-8; save the file as UTF-8",
                            enc.name()
                        ),
                    ),
                );
            }
        }
    }
}

/// The 8-bit code page `bytes` (not UTF-8) are most likely in, as a
/// browser guesses an unlabelled page's: a single-byte one, so that every
/// byte is one character; Windows-1252 when the guess is not.
fn code_page(bytes: &[u8]) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let enc = detector.guess(None, Utf8Detection::Deny);
    if enc.is_single_byte() {
        enc
    } else {
        WINDOWS_1252
    }
}

/// The lines of `bytes`, each with its line break: breaks are `\n`,
/// `\r\n` or a lone `\r`, as the TRF loader reads them (so line numbers
/// agree with its diagnostics).
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let rest = &bytes[pos..];
        let len = match memchr::memchr2(b'\n', b'\r', rest) {
            None => rest.len(),
            Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => i + 2,
            Some(i) => i + 1,
        };
        pos += len;
        Some(&rest[..len])
    })
}

/// The 8-bit encoding an XML file's declaration names
/// (`<?xml version="1.0" encoding="ISO-8859-1"?>`), as a browser reads the
/// label: `ISO-8859-1` and `US-ASCII` are Windows-1252, whose letters they
/// agree with. None without a declaration, for UTF-8 and UTF-16 (which
/// the bytes already are not), and for a label no browser knows.
fn xml_declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = bytes.strip_prefix(b"<?xml")?;
    let decl = &head[..memchr::memmem::find(head, b"?>")?];
    let at = memchr::memmem::find(decl, b"encoding")?;
    let rest = decl[at + b"encoding".len()..].trim_ascii_start();
    let rest = rest.strip_prefix(b"=")?.trim_ascii_start();
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let label = &rest[..memchr::memchr(quote, rest)?];
    let enc = Encoding::for_label(label)?;
    (enc.is_ascii_compatible() && enc != encoding_rs::UTF_8).then_some(enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> (String, ReadAs) {
        let d = decode(bytes.to_vec());
        (d.text, d.read_as)
    }

    #[test]
    fn utf8_stays_as_it_is_bom_included() {
        let t = "\u{feff}012 Šarić\r\n";
        assert_eq!(read(t.as_bytes()), (t.to_string(), ReadAs::Utf8));
    }

    #[test]
    fn eight_bit_is_the_code_page_its_letters_suggest_one_character_per_byte() {
        let (text, how) = read(b"012 Caf\xe9 M\xfcller, 5 \x80\n");
        assert_eq!(text, "012 Café Müller, 5 €\n");
        assert_eq!(how, ReadAs::Guessed(WINDOWS_1252));
        // Windows-1250: 0xE6 is `ć` (Windows-1252 has `æ` there).
        let (text, how) = read(b"001    3      \x8aar\x69\xe6    \n");
        assert_eq!(text, "001    3      Šarić    \n");
        assert_eq!(how, ReadAs::Guessed(encoding_rs::WINDOWS_1250));
        // Bytes a code page leaves undefined are still one character.
        let (text, _) = read(b"\x81\x8d\x8f\x90\x9d");
        assert_eq!(text.chars().count(), 5);
    }

    #[test]
    fn mixed_lines_each_read_their_own_way() {
        // `Ž`, `ž` and `é` are the same bytes in Windows-1250 and -1252.
        let bytes = [b"a\n", "Šarić\r\n".as_bytes(), b"\x8ea\x9eo\rb\n\xe9\n"].concat();
        let (text, how) = read(&bytes);
        assert_eq!(text, "a\nŠarić\r\nŽažo\rb\né\n");
        assert!(
            matches!(
                how,
                ReadAs::Mixed {
                    first: 3,
                    lines: 2,
                    ..
                }
            ),
            "{how:?}"
        );
    }

    #[test]
    fn an_xml_declaration_names_the_encoding() {
        let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>Caf\xe9 \x80</a>";
        let (text, how) = read(latin1);
        assert_eq!(
            text,
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>Café €</a>"
        );
        assert_eq!(how, ReadAs::Declared(WINDOWS_1252));
        let cp1250 = b"<?xml version='1.0' encoding = 'windows-1250'?><a>\x8a\xe8</a>";
        assert_eq!(
            read(cp1250).0,
            "<?xml version='1.0' encoding = 'windows-1250'?><a>Šč</a>"
        );
        // Declared UTF-8 (or a label no browser knows) but not UTF-8: a guess.
        for decl in ["UTF-8", "ISO-8392-1"] {
            let bytes = format!("<?xml version=\"1.0\" encoding=\"{decl}\"?><a>x</a>");
            let mut bytes = bytes.into_bytes();
            bytes.push(0xe9);
            assert_eq!(read(&bytes).1, ReadAs::Guessed(WINDOWS_1252), "{decl}");
        }
    }

    #[test]
    fn the_note_and_the_warning() {
        use crate::model::{Sport, System};
        let mut ev = Event::new("e", Sport::Chess, System::Swiss, 5);
        ev.notes.push("Standings after round 3 of 5".into());
        decode(b"\xe9".to_vec()).read_as.tell(&mut ev);
        assert!(
            ev.notes[0].contains("read as windows-1252"),
            "{:?}",
            ev.notes
        );
        decode(["é\n".as_bytes(), b"\xe9\n\xe9\n"].concat())
            .read_as
            .tell(&mut ev);
        assert_eq!(ev.warnings[0].code, codes::LOAD_MIXED_ENCODING);
        assert!(ev.warnings[0].message.contains("line 2 (and 1 more line)"));
    }
}
