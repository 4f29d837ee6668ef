"""More languages for :mod:`pagelens.focus.evidence`: kinds of words, in scripts and languages that
:mod:`pagelens.focus.lexicons` does not cover (data, compiled once on import).

Polish, Czech, Slovak, Ukrainian, Turkish, Arabic, Persian, Hebrew, Hindi, Bengali, Thai, Vietnamese,
Indonesian/Malay, Tagalog, Swedish, Danish, Norwegian, Finnish, Hungarian, Romanian, Greek. For each: the
words for an automated reader (assistant, agent, bot, artificial intelligence, model), for dismissing
(ignore, disregard, forget), for instructions (instructions, commands, task), for credentials and payment
(password, card number, sign in, pay) and for the reader's user. No entry is a phrase of any attack: the
evidence combines kinds (a word for the reader beside a dismissal, an off-site address or a credential
request), never wordings.

Stems are matched anywhere in the lowercased text (scripts without spaces, prefixed articles and
prepositions: Arabic "ال", Hebrew "ל", agglutinating Turkish, Finnish and Hungarian): a plain literal
alternation, which the regex engine scans fast. The stems are long or script-specific enough that an
accidental hit inside an unrelated word is rare, and a hit alone decides nothing.
"""

from __future__ import annotations

import re

from pagelens.focus.patterns import Folded, narrow_script, trie


def _alt(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``words`` anywhere, as a trie (each first character tested once: several times faster than a flat
    alternation of a few hundred words)."""
    return re.compile(trie(list(words)))


#: The automated reader: assistant, agent, bot, artificial intelligence, language model.
ROLE_STEMS = (
    # Polish, Czech, Slovak, Ukrainian
    "asystent", "sztuczn", "agencie ai", "agent ai", "agenta ai", "model językow", "asistent", "umělá inteligen",
    "umelá inteligen", "jazykový model", "асистент", "агенте", "штучн", "бот-", "чат-бот",
    # Turkish
    "yapay zek", "asistan", "yz ajan", "ajanı", "ajan:", "dil modeli",
    # Arabic, Persian
    "المساعد", "مساعد ذكي", "الذكاء الاصطناعي", "ذكاء اصطناعي", "الوكيل", "وكيل ذكي", "روبوت", "نموذج لغوي",
    "دستیار", "هوش مصنوعی", "ربات", "عامل هوشمند",
    # Hebrew
    "סוכן", "בינה מלאכותית", "עוזר וירטואלי", "עוזר ה", "בוט",
    # Hindi, Bengali
    "एआई", "एजेंट", "सहायक", "कृत्रिम बुद्धि", "बॉट", "এআই", "এজেন্ট", "সহকারী", "কৃত্রিম বুদ্ধিমত্তা",
    # Thai
    "ผู้ช่วย", "เอไอ", "ปัญญาประดิษฐ์", "เอเจนต์", "บอท",
    # Vietnamese
    "trợ lý", "trí tuệ nhân tạo", "tác nhân", "mô hình ngôn ngữ",
    # Indonesian, Malay, Tagalog
    "asisten ai", "asisten virtual", "agen ai", "kecerdasan buatan", "kecerdasan artifisial", "pembantu ai", "ejen ai",
    "katulong na ai",
    # Swedish, Danish, Norwegian, Finnish, Hungarian, Romanian, Greek
    "assistenten", "ai-assistent", "ai-agent", "kunstig intelligen", "artificiell intelligens", "tekoäly",
    "avustaja", "mesterséges intelligencia", "asszisztens", "inteligență artificială", "inteligenta artificiala",
    "asistentul", "agentul", "βοηθ", "τεχνητή νοημοσύνη", "πράκτορα", "γλωσσικό μοντέλο",
    # more forms: Ukrainian "ШІ" (AI), Romanian plurals, Finnish and Swedish bots
    "ші-", "асистенти", "asistenți", "asistentii", "botti", "chatbotar",
)
#: Dismissing what the reader was told: ignore, disregard, forget, do not take into account.
DISMISS_STEMS = (
    "zignoruj", "ignoruj", "zapomnij", "pomiń", "nie zważaj", "ігноруй", "забудь", "zapomeň", "nevšímej",
    "yoksay", "görmezden gel", "dikkate alma", "unut",
    "تجاهل", "تجاهلي", "انس ", "لا تلتفت", "نادیده بگیر", "فراموش کن",
    "התעלם", "התעלמי", "שכח", "אל תתייחס",
    "अनदेखा", "नज़रअंदाज़", "नजरअंदाज", "भूल जाओ", "উপেক্ষা", "ভুলে যাও",
    "เพิกเฉย", "ไม่ต้องสนใจ", "ลืม",
    "bỏ qua", "phớt lờ", "quên",
    "abaikan", "lupakan", "huwag pansinin", "kalimutan",
    "ignorera", "glöm", "ignorer", "glem", "sivuuta", "unohda", "hagyd figyelmen kívül", "felejtsd el",
    "ignoră", "uită", "αγνόησε", "αγνοήστε", "ξέχνα", "ξεχάστε",
)
#: Instructions, commands, the task the reader was given.
INSTR_STEMS = (
    "polecen", "instrukcj", "instrukc", "pokyn", "інструкц", "вказівк",
    "talimat", "komut", "yönerge", "görev",
    "التعليمات", "تعليمات", "الأوامر", "أوامر", "دستورالعمل", "دستورات",
    "הוראות", "הנחיות", "פקודות",
    "निर्देश", "आदेश", "নির্দেশ",
    "คำสั่ง", "คำแนะนำ",
    "hướng dẫn", "chỉ thị", "lệnh", "nhiệm vụ",
    "instruksi", "perintah", "arahan", "tugas", "tagubilin",
    "instruktion", "instruks", "ohje", "utasítás", "instrucțiun", "instructiun", "οδηγίε", "εντολ",
)
#: Credentials and payment: password, card number, sign in, pay.
CRED_STEMS = (
    "hasło", "hasła", "numer karty", "zaloguj", "heslo", "číslo karty", "пароль", "номер картки",
    "şifre", "kart numara", "giriş yap",
    "كلمة المرور", "كلمة السر", "رقم البطاقة", "بطاقة الائتمان", "رمز عبور", "شماره کارت",
    "סיסמ", "מספר כרטיס", "כרטיס אשראי",
    "पासवर्ड", "कार्ड नंबर", "পাসওয়ার্ড",
    "รหัสผ่าน", "หมายเลขบัตร",
    "mật khẩu", "số thẻ",
    "kata sandi", "kata laluan", "nomor kartu", "nombor kad",
    "lösenord", "kortnummer", "adgangskode", "passord", "salasana", "kortin numero", "jelszó", "kártyaszám",
    "parola", "numărul card", "κωδικό πρόσβασης", "αριθμό κάρτας",
)
#: The reader's user.
USER_STEMS = (
    "użytkownik", "uživatel", "користувач", "kullanıcı", "المستخدم", "کاربر", "המשתמש", "उपयोगकर्ता",
    "ব্যবহারকারী", "ผู้ใช้", "người dùng", "pengguna", "användare", "bruger", "käyttäjä", "felhasználó",
    "utilizator", "χρήστη",
    # without the article, which a preposition replaces (Hebrew "ל", Arabic "لل"); Greek plural
    "משתמש", "مستخدم", "χρήστες",
)

#: Orders: the language's obligation words (must, should, it is necessary) and imperatives of the verbs an order to
#: a reader uses (tell, recommend, send, enter, click, go to, visit, open, accept, turn on, stop, run). General grammar:
#: honest text is full of them; they count only beside what anchors a verdict (a word for the reader, an address).
ORDER_STEMS = (
    # Polish, Czech, Ukrainian
    "musisz", "musicie", "należy", "powinien", "powinni", "przekaż", "poleć", "wyślij", "wpisz", "kliknij",
    "przejdź", "otwórz", "zaakceptuj", "włącz", "zatrzymaj", "uruchom", "podaj", "odwiedź", "powiedz",
    "musíte", "je nutné", "pošlete", "zadejte", "klikněte", "otevřete", "přejděte", "navštivte", "řekněte", "spusťte",
    "мусите", "повинні", "необхідно", "надішліть", "введіть", "натисніть", "перейдіть", "відкрийте", "скажіть",
    "повідомте", "запустіть", "увімкніть",
    # Turkish
    "malıdır", "melidir", "malısınız", "melisiniz", "gönderin", "girin", "tıklayın", "gidin", "açın", "söyleyin",
    "önerin", "kabul edin", "durdurun", "çalıştırın",
    # Arabic, Persian, Hebrew
    "يجب", "ينبغي", "أرسل", "أدخل", "انقر", "اضغط", "اذهب", "افتح", "أخبر", "انصح", "أوقف", "فعّل",
    "باید", "بفرستید", "وارد کنید", "کلیک کنید", "بروید", "باز کنید", "بگویید",
    "חייב", "עליך", "עליכם", "שלחו", "הזינו", "הקלידו", "לחצו", "פתחו", "אמרו", "המליצו", "הפעילו",
    # Hindi, Bengali, Thai
    "चाहिए", "भेजें", "दर्ज करें", "क्लिक करें", "जाएँ", "खोलें", "बताइए", "बताएँ", "सुझाइए", "करें",
    "করুন", "পাঠান", "উচিত", "লিখুন",
    "ต้อง", "กรุณา", "โปรด", "คลิก", "ไปที่",
    # Vietnamese, Indonesian/Malay, Tagalog
    "hãy", "phải", "gửi", "nhập", "nhấp", "bấm", "truy cập", "báo cho",
    "harus", "wajib", "silakan", "kirim", "masukkan", "klik", "kunjungi", "beri tahu", "jalankan", "aktifkan",
    "dapat mong", "kailangan", "ipadala", "ilagay", "pumunta", "buksan", "sabihin",
    # Swedish, Danish, Norwegian, Finnish, Hungarian, Romanian, Greek
    "måste", "skicka", "skriv in", "klicka", "gå till", "öppna", "berätta", "rekommendera", "godkänn",
    "slå på", "indtast", "skriv inn", "åbn", "åpne", "fortæl", "fortell", "gå til",
    "täytyy", "pitää", "kerro", "lähetä", "kirjoita", "syötä", "napsauta", "klikkaa", "siirry",
    "suosittele", "hyväksy", "kytke", "käynnistä",
    "küldd", "küldje", "add meg", "adja meg", "kattints", "kattintson", "nyisd", "nyissa", "mondd",
    "trebuie", "trimite", "introduceți", "faceți clic", "accesați", "deschide", "spuneți", "recomandă",
    "πρέπει", "στείλτε", "στείλε", "πληκτρολογήστε", "εισάγετε", "κάντε κλικ", "πατήστε", "μεταβείτε", "ανοίξτε",
    "πείτε", "προτείνετε", "αποδεχτείτε", "ενεργοποιήστε", "εκτελέστε", "διακόψτε",
)

ROLE = _alt(ROLE_STEMS)
#: An order word of a Latin, Greek or Cyrillic script must end a word: its imperative is the whole word, and the same
#: letters begin nouns ("włącz", turn on: "włączenie", inclusion). Scripts written without spaces, or with attached
#: suffixes (Thai, Arabic, Devanagari …), keep matching anywhere.
ORDER = re.compile(f"(?:{trie(list(ORDER_STEMS))})(?![A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0370-\u03ff\u0400-\u04ff])")
DISMISS = _alt(DISMISS_STEMS)
INSTR = _alt(INSTR_STEMS)
CRED = _alt(CRED_STEMS)
USER = _alt(USER_STEMS)
#: Any stem above: the gate (a text without one has nothing for :func:`wide_evidence` to judge).
_GATE = _alt(ROLE_STEMS + DISMISS_STEMS + INSTR_STEMS)
#: The stems a text of ASCII and caseless punctuation (:func:`~pagelens.focus.lexicons.narrow_script`) can hold.
_GATE_ASCII = _alt(tuple(w for w in ROLE_STEMS + DISMISS_STEMS + INSTR_STEMS if narrow_script(w)))


def gate(low: str) -> bool:
    """Whether the lowercased text holds any stem above (an ASCII text is searched for the ASCII stems only)."""
    return (_GATE_ASCII if narrow_script(low) else _GATE).search(low) is not None


def gate_hits(low: str) -> list[int]:
    """Where the stems above start in ``low``."""
    return [m.start() for m in (_GATE_ASCII if narrow_script(low) else _GATE).finditer(low)]


# ---- a vocative noun phrase opening a sentence and closed by a colon ("Automated shopping tools:", "AI reviewers of
#      this abstract:", "Remote assistants diagnosing this modem:"): the reader named as a kind of machine, or as a
#      reader of this page. Kinds of words (a qualifier, an agentive head, a tail pointing at this page), no wording.
_QUAL = r"(?:automated|autonomous|automatic|agentic|headless|robotic)"
_AI_QUAL = r"(?:ai|a\.i\.|llm|gpt)"
_AGENTIVE = r"[a-z]{3,}(?:ers|ors|ants|ents)|bots|agents|models|assistants|helpers|crawlers|readers"
_TOOLS = r"tools|programs|systems|services|scripts|clients|software|browsers|shoppers|buyers|visitors"
_ROLE_PLAIN = r"(?:agents?|assistants?|bots?|crawlers?|scrapers?|models?|readers?|visitors?|helpers?)"
_TAIL = (r"(?:\s+(?:of|on|at|for|in|visiting|reading|using)\s+(?:this|these|the|our)\s+[\w-]+|"
         r"\s+[a-z]{3,}ing\s+(?:this|these|the|our|my)\s+[\w-]+)")
_OPEN = r"(?:^|[.!?]\s+|\n)(?:(?:to|for|attention|note\s+(?:to|for)|dear|hey|hello)\s+)?(?:the\s+|all\s+|any\s+|every\s+)?"
VOCATIVE = Folded(
    rf"{_OPEN}(?:(?P<q>(?:[\w-]+\s+)?(?:{_QUAL}[\s-]+(?:[\w-]+\s+)?(?:{_AGENTIVE}|{_TOOLS})|"
    rf"{_AI_QUAL}[\s-]+(?:[\w-]+\s+)?(?:{_AGENTIVE})))(?P<qt>{_TAIL})?|"
    rf"(?:[\w-]+\s+)?{_ROLE_PLAIN}(?P<t>{_TAIL}))\s*:\s*(?=\S)")

#: The reader named as the one operating or reading the page ("this page is operated by an assistant program"): text
#: conditioned on an automated reader. The head is a role noun or an AI acronym (not "an automated system", which
#: also processes honest forms).
READ_BY = Folded(
    r"\b(?:is|are|being|gets?|get)\s+(?:\w+\s+)?(?:operated|read|viewed|used|visited|accessed|browsed|processed|"
    r"controlled|driven|navigated|handled|parsed|crawled|summari[sz]ed)\s+by\s+(?:an?\s+|the\s+|some\s+|any\s+)?"
    r"(?:[\w-]+\s+)?(?:ai|a\.i\.|llm|gpt|agents?|assistants?|bots?|crawlers?|language\s+models?)\b")
