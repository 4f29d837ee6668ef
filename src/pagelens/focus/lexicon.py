"""Words of the web's common controls, in several languages, grouped by concept.

Goals and pages rarely share words ("sign in" vs "Anmelden", "log in" vs "login",
"basket" vs "cart"). A goal word that names a concept matches every surface form of that
concept on the page. This is a vocabulary of generic UI intents — not of any page.
Forms with spaces or non-Latin scripts are matched as substrings of the normalised text.
"""

from __future__ import annotations

CONCEPTS: dict[str, tuple[str, ...]] = {
    "login": ("login", "log in", "log-in", "logon", "sign in", "signin", "sign-in", "anmelden", "anmeldung",
              "einloggen", "connexion", "se connecter", "iniciar sesión", "iniciar sesion", "acceder", "entrar",
              "accedi", "accesso", "inloggen", "aanmelden", "ログイン", "サインイン", "登录", "登入", "로그인", "войти"),
    "logout": ("logout", "log out", "sign out", "signout", "abmelden", "ausloggen", "déconnexion", "se déconnecter",
               "cerrar sesión", "esci", "uitloggen", "ログアウト", "退出", "выйти"),
    "register": ("register", "registration", "sign up", "signup", "create account", "create an account", "join",
                 "registrieren", "registrierung", "konto erstellen", "neues konto", "s'inscrire", "inscription",
                 "créer un compte", "registrarse", "regístrate", "crear cuenta", "registrati", "registreren",
                 "会員登録", "新規登録", "登録", "注册", "회원가입", "зарегистрироваться"),
    "search": ("search", "find", "lookup", "look up", "query", "suche", "suchen", "durchsuchen", "rechercher",
               "recherche", "buscar", "búsqueda", "busqueda", "cerca", "cercare", "zoeken", "検索", "搜索", "검색",
               "поиск", "найти"),
    "cart": ("cart", "basket", "bag", "trolley", "warenkorb", "einkaufswagen", "panier", "carrito", "cesta",
             "carrello", "winkelwagen", "mand", "カート", "買い物かご", "购物车", "장바구니", "корзина"),
    "add": ("add", "hinzufügen", "in den warenkorb", "ajouter", "añadir", "agregar", "aggiungi", "toevoegen",
            "追加", "加入", "添加", "추가", "добавить"),
    "buy": ("buy", "purchase", "order", "checkout", "check out", "proceed to checkout", "pay", "kaufen",
            "bestellen", "kasse", "zur kasse", "acheter", "commander", "comprar", "pagar", "acquista", "kopen",
            "bestellen", "購入", "注文", "レジ", "购买", "结账", "구매", "купить", "оформить"),
    "next": ("next", "next page", "more", "older", "forward", "continue", "›", "»", "→", ">", "weiter", "nächste",
             "vor", "suivant", "suivante", "siguiente", "próximo", "avanti", "successivo", "successiva", "volgende",
             "次へ", "次", "下一页", "下一頁", "다음", "далее", "следующая"),
    "previous": ("previous", "prev", "newer", "back", "‹", "«", "←", "<", "zurück", "vorherige", "précédent",
                 "précédente", "anterior", "indietro", "precedente", "vorige", "前へ", "前", "上一页", "이전", "назад"),
    "page": ("page", "seite", "página", "pagina", "ページ", "页"),
    "accept": ("accept", "agree", "allow", "ok", "okay", "got it", "i agree", "accept all", "allow all",
               "einverstanden", "akzeptieren", "zustimmen", "alle akzeptieren", "annehmen", "accepter",
               "j'accepte", "tout accepter", "aceptar", "acepto", "accetta", "accetto", "accepteren", "akkoord",
               "同意", "同意する", "接受", "동의", "принять", "согласен"),
    "reject": ("reject", "decline", "deny", "refuse", "ablehnen", "refuser", "rechazar", "rifiuta", "weigeren",
               "拒否", "拒绝", "거부", "отклонить"),
    "close": ("close", "dismiss", "×", "✕", "x", "schließen", "fermer", "cerrar", "chiudi", "sluiten", "閉じる",
              "关闭", "닫기", "закрыть"),
    "cookie": ("cookie", "cookies", "consent", "privacy", "datenschutz", "confidentialité", "privacidad"),
    "language": ("language", "lang", "english", "deutsch", "français", "español", "italiano", "nederlands",
                 "日本語", "中文", "sprache", "langue", "idioma", "lingua", "taal", "言語", "语言", "언어", "язык"),
    "price": ("price", "cost", "cheapest", "cheap", "expensive", "costs", "amount", "total", "subtotal", "$", "€",
              "£", "¥", "usd", "eur", "preis", "kosten", "günstig", "prix", "coût", "precio", "barato", "prezzo",
              "prijs", "価格", "値段", "税込", "円", "价格", "가격", "цена"),
    "sort": ("sort", "sort by", "order by", "sorted by", "ordered by", "sort order", "sortieren", "sortierung", "trier", "ordenar", "ordina", "sorteren",
             "並び替え", "排序", "정렬", "сортировка"),
    "filter": ("filter", "filters", "refine", "narrow", "facet", "filtern", "filtrer", "filtrar", "filtra",
               "絞り込み", "筛选", "필터", "фильтр"),
    "review": ("review", "reviews", "rating", "ratings", "stars", "bewertung", "bewertungen", "rezension", "avis",
               "opinión", "opiniones", "reseña", "recensione", "beoordeling", "レビュー", "评价", "리뷰", "отзыв"),
    "comment": ("comment", "comments", "reply", "replies", "respond", "answer", "kommentar", "kommentare",
                "antworten", "commentaire", "répondre", "comentario", "responder", "commento", "rispondi",
                "reactie", "コメント", "返信", "评论", "回复", "댓글", "комментарий", "ответить"),
    "upvote": ("upvote", "up vote", "vote up", "like", "thumbs up", "▲", "↑", "gefällt mir", "j'aime", "me gusta",
               "いいね", "赞", "좋아요"),
    "downvote": ("downvote", "down vote", "vote down", "dislike", "thumbs down", "▼", "↓"),
    "submit": ("submit", "send", "post", "publish", "confirm", "apply", "go", "save", "absenden", "senden",
               "speichern", "bestätigen", "envoyer", "valider", "enregistrer", "enviar", "guardar", "confirmar",
               "invia", "salva", "verzenden", "opslaan", "送信", "保存", "確認", "提交", "发送", "제출",
               "отправить", "сохранить"),
    "delete": ("delete", "remove", "trash", "discard", "löschen", "entfernen", "supprimer", "eliminar", "borrar",
               "elimina", "rimuovi", "verwijderen", "削除", "删除", "삭제", "удалить"),
    "edit": ("edit", "modify", "change", "update", "bearbeiten", "ändern", "modifier", "editar", "modificar",
             "modifica", "bewerken", "編集", "変更", "编辑", "修改", "편집", "изменить", "редактировать"),
    "password": ("password", "passcode", "pin", "passwort", "kennwort", "mot de passe", "contraseña", "password",
                 "wachtwoord", "パスワード", "密码", "비밀번호", "пароль"),
    "email": ("email", "e-mail", "mail", "e-mail-adresse", "courriel", "correo", "correo electrónico",
              "indirizzo email", "メール", "メールアドレス", "邮箱", "电子邮件", "이메일", "почта"),
    "username": ("username", "user name", "user id", "userid", "login name", "benutzername", "nom d'utilisateur",
                 "identifiant", "usuario", "nome utente", "gebruikersnaam", "ユーザー名", "ユーザーid", "用户名",
                 "아이디", "логин"),
    "name": ("name", "first name", "last name", "full name", "surname", "vorname", "nachname", "nom", "prénom",
             "nombre", "apellido", "nome", "cognome", "naam", "氏名", "名前", "姓", "名", "姓名", "이름", "имя"),
    "address": ("address", "street", "city", "zip", "postcode", "postal code", "country", "state", "adresse",
                "straße", "stadt", "plz", "land", "ville", "code postal", "pays", "dirección", "ciudad",
                "código postal", "país", "indirizzo", "città", "cap", "住所", "市区町村", "郵便番号", "地址", "주소", "адрес"),
    "phone": ("phone", "telephone", "mobile", "tel", "call", "hotline", "telefon", "handy", "téléphone", "teléfono", "telefono",
              "電話", "電話番号", "电话", "전화", "телефон"),
    "payment": ("payment", "card", "credit card", "card number", "cvv", "cvc", "expiry", "expiration",
                "zahlung", "karte", "kreditkarte", "paiement", "carte", "pago", "tarjeta", "pagamento", "carta",
                "betaling", "支払い", "カード", "支付", "银行卡", "결제", "оплата", "карта"),
    "date": ("date", "day", "month", "year", "when", "datum", "tag", "monat", "jahr", "jour", "mois", "année",
             "fecha", "día", "mes", "año", "data", "giorno", "日付", "日", "月", "年", "日期", "날짜", "дата"),
    "quantity": ("quantity", "qty", "amount", "number of", "menge", "anzahl", "quantité", "cantidad",
                 "quantità", "aantal", "数量", "수량", "количество"),
    "home": ("home", "homepage", "start", "startseite", "accueil", "inicio", "ホーム", "首页", "홈", "главная"),
    "contact": ("contact", "contact us", "kontakt", "impressum", "contacto", "contatti", "お問い合わせ",
                "联系", "연락처", "контакты"),
    "help": ("help", "support", "faq", "hilfe", "aide", "ayuda", "aiuto", "ヘルプ", "帮助", "도움말", "помощь"),
    "settings": ("settings", "preferences", "options", "configuration", "config", "einstellungen",
                 "paramètres", "configuración", "impostazioni", "instellingen", "設定", "设置", "설정", "настройки"),
    "account": ("account", "profile", "my account", "konto", "mein konto", "profil", "compte", "mon compte",
                "cuenta", "mi cuenta", "perfil", "profilo", "account", "アカウント", "マイページ", "账户", "계정",
                "аккаунт", "профиль"),
    "show_more": ("show more", "load more", "see more", "view more", "read more", "more results", "view all",
                  "see all", "show all", "mehr anzeigen", "mehr laden", "alle anzeigen", "voir plus", "afficher plus",
                  "ver más", "mostrar más", "mostra altro", "meer", "もっと見る", "さらに表示", "查看更多", "더보기",
                  "показать ещё"),
    "download": ("download", "export", "csv", "excel", "xlsx", "spreadsheet", "herunterladen", "exportieren", "télécharger", "descargar", "scarica", "ダウンロード", "下载",
                 "다운로드", "скачать", "pdf"),
    "count": ("how many", "number of", "count", "results", "records", "entries", "matches", "found", "ergebnisse",
              "treffer", "einträge", "résultats", "resultados", "risultati", "件", "条结果"),
    "share": ("share", "teilen", "partager", "compartir", "condividi", "delen", "共有", "分享", "공유", "поделиться"),
    "subscribe": ("subscribe", "newsletter", "follow", "abonnieren", "s'abonner", "suscribirse", "iscriviti",
                  "購読", "订阅", "구독", "подписаться"),
    "author": ("author", "posted by", "written by", "submitted by", "started by", "asked by", "opened by",
               "created by", "op", "verfasst von", "autor", "auteur", "publié par", "publicado por", "作者", "投稿者",
               "작성자", "автор"),
    "create": ("create", "new", "compose", "write", "start", "add new", "new post", "new thread", "new topic",
               "erstellen", "neu", "créer", "nouveau", "nouvelle", "crear", "nuevo", "nueva", "crea", "nuovo",
               "maken", "nieuw", "作成", "新規", "投稿する", "创建", "新建", "발행", "만들기", "создать", "новый"),
    "newest": ("newest", "latest", "recent", "most recent", "new", "neueste", "neu", "récent", "récents",
               "reciente", "recientes", "nuovi", "nieuwste", "新着", "最新", "最新的", "최신", "новые"),
    "maximum": ("max", "maximum", "at most", "less than", "under", "below", "up to", "no more than", "höchstens",
                "maximal", "bis zu", "au plus", "moins de", "máximo", "máx", "menos de", "massimo", "最大", "以下",
                "最高", "최대", "не более"),
    "minimum": ("min", "minimum", "at least", "more than", "over", "above", "no less than", "mindestens",
                "minimal", "au moins", "plus de", "mínimo", "mín", "más de", "minimo", "最小", "以上", "最低",
                "최소", "не менее"),
    "menu": ("menu", "navigation", "nav", "hamburger", "menü", "menú", "メニュー", "菜单", "메뉴", "меню"),
}

#: Question words of a goal and the concept whose lines answer them ("who posted this?" is
#: answered by a byline). Goal side only: a page saying "who" is not a byline.
QUESTION_CONCEPTS: dict[str, str] = {
    "who": "author", "whom": "author", "whose": "author", "wer": "author", "qui": "author", "quién": "author",
    "chi": "author", "how much": "amount", "wie viel": "amount", "combien": "amount", "cuánto": "amount",
    "cuanto": "amount", "how heavy": "amount", "how long": "amount", "how big": "amount", "how far": "amount",
    "how many": "count", "wie viele": "count", "cuántos": "count", "cuántas": "count",
}

#: Words that ask for an extreme or a position in a list ("the newest post", "the cheapest").
SUPERLATIVES = frozenset(
    """newest latest recent oldest first last top bottom highest lowest cheapest cheaper expensive best worst biggest
    largest smallest longest shortest most least senior junior earliest popular highest-rated top-rated
    neueste neuesten aktuellste günstigste billigste teuerste beste erste letzte
    récent récente dernier dernière premier première moins meilleur
    reciente último última primero primera barato barata mejor
    最新 最安 安い 人気""".split()
)

STOPWORDS = frozenset(
    """a an the of to in on at for from by with and or but is are was were be been being it its this that these those
    i me my we our you your he she they them their his her as into onto about over under than then so such can could
    should would will shall may might must do does did done have has had not no yes please all any each every some
    there here what which who whom whose when where why how also just only very more most less least find show tell
    give get go page site website web click button link using use via one per much many whats what's i'd i'm
    like want need let lets me
    before after during while whether
    der die das den dem des ein eine einen einem einer und oder zu im in auf mit von für ist sind bitte
    le la les un une des et ou du de au aux pour sur avec est sont
    el la los las un una unos unas y o del al para por con es son
    """.split()
)


def build_surface_index() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    """(single-word form -> concepts, [(multi-word or non-Latin form, concept)])."""
    words: dict[str, set[str]] = {}
    phrases: list[tuple[str, str]] = []
    for concept, forms in CONCEPTS.items():
        for form in forms:
            f = form.lower()
            if " " in f or not f.isascii() or not f.isalnum():
                phrases.append((f, concept))
            else:
                words.setdefault(f, set()).add(concept)
    return words, phrases
