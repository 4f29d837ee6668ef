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
    "submit": ("submit", "send", "post", "publish", "confirm", "apply", "go", "save", "recalculate", "calculate",
               "refresh", "berechnen", "aktualisieren", "calculer", "calcular", "calcola", "berekenen", "計算", "再計算", "absenden", "senden",
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

#: Concepts of what pages *show* beside what they let one do: the fields of a product, a book,
#: a listing, an account or a public-service page, named in the page's language while an
#: English goal names them in English. General web vocabulary (what an e-commerce, media or
#: public page is made of), not the words of any page.
INFO_CONCEPTS: dict[str, tuple[str, ...]] = {
    "sample": ("sample", "samples", "preview", "excerpt", "look inside", "read sample", "free sample", "leseprobe",
               "vorschau", "reinlesen", "extrait", "aperçu", "muestra", "vista previa", "anteprima", "estratto",
               "voorproefje", "試し読み", "立ち読み", "サンプル", "プレビュー", "试读", "预览", "미리보기", "фрагмент"),
    "publisher": ("publisher", "publishers", "published by", "publishing", "imprint", "verlag", "verlage",
                  "herausgeber", "éditeur", "éditeurs", "éditions", "editorial", "editoriales", "editore",
                  "casa editrice", "uitgever", "uitgeverij", "出版社", "出版", "発行", "出版社", "发行", "출판사",
                  "издательство"),
    "notify": ("notify", "notification", "notifications", "notified", "alert", "alerts", "remind", "reminder", "follow",
               "watch", "watchlist", "folgen", "suivre", "seguir", "segui", "volgen", "フォロー", "关注", "팔로우",
               "benachrichtigen", "benachrichtigung", "benachrichtigungen", "erinnerung", "notifier", "alerte",
               "alertes", "avisar", "avísame", "aviso", "alerta", "alertas", "notificación", "notificaciones",
               "notifica", "notifiche", "avviso", "avvisami", "melding", "meldingen", "通知", "アラート", "提醒",
               "알림", "уведомление", "уведомления"),
    "wishlist": ("wishlist", "wish list", "favorite", "favourite", "favorites", "favourites", "bookmark", "bookmarks",
                 "save for later", "merkliste", "wunschliste", "wunschzettel", "favoriten", "merken",
                 "liste de souhaits", "liste d'envies", "favoris", "lista de deseos", "favoritos",
                 "lista dei desideri", "preferiti", "verlanglijst", "favorieten", "お気に入り", "ほしい物", "欲しいもの",
                 "收藏", "愿望单", "위시리스트", "즐겨찾기", "избранное"),
    "shipping": ("shipping", "delivery", "deliver", "postage", "dispatch", "versand", "lieferung", "versandkosten",
                 "lieferzeit", "livraison", "frais de port", "envío", "envio", "entrega", "gastos de envío",
                 "spedizione", "consegna", "verzending", "verzendkosten", "levering", "配送", "送料", "発送", "配送料",
                 "运费", "配送", "배송", "доставка"),
    "returns": ("return", "returns", "refund", "refunds", "rückgabe", "rückgaberecht", "rücksendung", "rückversand",
                "retoure", "retour", "retours", "remboursement", "devolución", "devoluciones", "reembolso", "reso",
                "resi", "rimborso", "retourneren", "返品", "返金", "退货", "退款", "반품", "환불", "возврат"),
    "size": ("size", "sizes", "größe", "grösse", "größen", "taille", "tailles", "talla", "tallas", "tamaño",
             "taglia", "taglie", "misura", "maat", "maten", "サイズ", "尺码", "尺寸", "사이즈", "размер"),
    "weight": ("weight", "weighs", "weigh", "heavy", "heavier", "lightweight", "gewicht", "wiegt", "schwer",
               "poids", "pèse", "peso", "pesa", "pesante", "zwaar", "重量", "重さ", "무게", "вес"),
    "dimensions": ("dimensions", "length", "height", "width", "depth", "tall", "wide", "länge", "höhe", "breite",
                   "tiefe", "abmessungen", "maße", "longueur", "hauteur", "largeur", "profondeur", "longitud",
                   "altura", "ancho", "anchura", "profundidad", "dimensiones", "lunghezza", "altezza", "larghezza",
                   "profondità", "dimensioni", "lengte", "hoogte", "breedte", "diepte", "afmetingen", "長さ", "高さ",
                   "寸法", "长度", "高度", "宽度", "길이", "높이", "너비", "длина", "высота", "ширина"),
    "colour": ("color", "colour", "colors", "colours", "farbe", "farben", "couleur", "couleurs", "colores", "colore",
               "colori", "kleur", "kleuren", "カラー", "色", "颜色", "색상", "цвет"),
    "stock": ("in stock", "available", "availability", "out of stock", "sold out", "lieferbar", "verfügbar",
              "verfügbarkeit", "vorrätig", "auf lager", "ausverkauft", "disponible", "en stock", "épuisé",
              "disponibilidad", "agotado", "disponibile", "disponibilità", "esaurito", "op voorraad", "beschikbaar",
              "uitverkocht", "在庫", "在庫あり", "売り切れ", "品切れ", "有货", "缺货", "재고", "품절", "в наличии"),
    "details": ("description", "details", "specifications", "specs", "features", "equipment", "technical data",
                "product information", "beschreibung", "produktbeschreibung", "technische daten", "ausstattung",
                "merkmale", "eigenschaften", "caractéristiques", "fiche technique", "équipement", "descripción",
                "características", "ficha técnica", "equipamiento", "descrizione", "caratteristiche", "dotazione",
                "scheda tecnica", "beschrijving", "kenmerken", "specificaties", "uitrusting", "詳細", "仕様",
                "商品説明", "作品情報", "商品情報", "スペック", "装備", "详情", "规格", "상세", "사양",
                "описание", "характеристики"),
    "terms": ("terms", "terms and conditions", "terms of service", "terms of use", "conditions", "agb",
              "nutzungsbedingungen", "geschäftsbedingungen", "conditions générales", "cgv", "cgu", "términos",
              "condiciones", "términos y condiciones", "termini", "condizioni", "voorwaarden", "利用規約", "規約",
              "条款", "服务条款", "이용약관", "условия"),
    "privacy": ("privacy", "privacy policy", "data protection", "datenschutz", "datenschutzerklärung",
                "datenschutzbestimmungen", "confidentialité", "politique de confidentialité", "privacidad",
                "política de privacidad", "informativa sulla privacy", "privacybeleid", "プライバシー",
                "プライバシーポリシー", "個人情報", "隐私", "隐私政策", "개인정보", "конфиденциальность"),
    "forgot": ("forgot", "forgotten", "reset", "recover", "vergessen", "zurücksetzen", "oublié", "oubliée",
               "réinitialiser", "olvidé", "olvidaste", "olvidado", "restablecer", "recuperar", "dimenticata",
               "dimenticato", "reimposta", "recupera", "vergeten", "忘れ", "お忘れ", "再設定", "忘记", "重置",
               "재설정", "찾기", "забыли", "восстановить"),
    "remember": ("remember me", "keep me signed in", "stay signed in", "keep me logged in", "stay logged in",
                 "angemeldet bleiben", "eingeloggt bleiben", "se souvenir de moi", "rester connecté", "recordarme",
                 "mantener la sesión", "ricordami", "onthoud mij", "ingelogd blijven", "ログイン状態を保持",
                 "次回から", "记住我", "自动登录", "로그인 상태 유지", "запомнить меня"),
    "gender": ("gender", "salutation", "mrs", "male", "female", "anrede", "herr", "frau", "geschlecht",
               "civilité", "monsieur", "madame", "sexe", "sexo", "señor", "señora", "sesso", "signor", "signora",
               "aanhef", "geslacht", "dhr", "mevrouw", "性別", "男性", "女性", "性别", "성별"),
    "birthday": ("birthday", "date of birth", "birth date", "birthdate", "dob", "geburtsdatum", "geburtstag",
                 "date de naissance", "fecha de nacimiento", "data di nascita", "geboortedatum", "生年月日", "誕生日",
                 "出生日期", "생년월일", "дата рождения"),
    "print": ("print", "printable", "drucken", "druckversion", "imprimer", "imprimir", "stampa", "stampare",
              "afdrukken", "印刷", "打印", "인쇄", "печать"),
    "compare": ("compare", "comparison", "vergleichen", "vergleich", "comparer", "comparaison", "comparar",
                "comparación", "confronta", "confronto", "vergelijken", "vergelijking", "比較", "比较", "비교",
                "сравнить"),
    "map": ("map", "maps", "directions", "getting here", "how to get there", "anfahrt", "lageplan", "stadtplan",
            "wegbeschreibung", "plan d'accès", "itinéraire", "mapa", "cómo llegar", "mappa", "indicazioni stradali",
            "kaart", "routebeschrijving", "地図", "アクセスマップ", "地图", "지도", "карта"),
    "hours": ("opening hours", "opening times", "business hours", "öffnungszeiten", "sprechzeiten", "horaires",
              "heures d'ouverture", "horario de apertura", "horarios", "orari", "orario di apertura",
              "openingstijden", "営業時間", "受付時間", "营业时间", "영업시간", "часы работы"),
    "timetable": ("timetable", "schedule", "departure", "departures", "arrival", "arrivals", "fahrplan", "abfahrt",
                  "ankunft", "horaire", "départ", "arrivée", "salida", "llegada", "partenza", "arrivo",
                  "dienstregeling", "vertrek", "aankomst", "時刻表", "出発", "到着", "时刻表", "出发", "到达",
                  "시간표", "출발", "도착", "расписание"),
    "news": ("news", "latest news", "nachrichten", "aktuelles", "neuigkeiten", "presse", "actualités",
             "nouvelles", "noticias", "novedades", "prensa", "notizie", "nieuws", "ニュース", "お知らせ",
             "新闻", "뉴스", "новости"),
    "events": ("event", "events", "calendar", "veranstaltung", "veranstaltungen", "termine", "kalender",
               "événement", "événements", "agenda", "calendrier", "evento", "eventos", "calendario", "eventi",
               "evenement", "evenementen", "イベント", "カレンダー", "活动", "日历", "이벤트", "행사", "мероприятия"),
    "jobs": ("jobs", "careers", "career", "vacancies", "karriere", "stellenangebote", "stellen", "emploi",
             "carrières", "recrutement", "empleo", "empleos", "trabaja con nosotros", "lavora con noi", "carriere",
             "vacatures", "werken bij", "採用", "求人", "採用情報", "招聘", "채용", "вакансии"),
    "about_us": ("about us", "who we are", "über uns", "unternehmen", "à propos", "qui sommes-nous",
              "sobre nosotros", "quiénes somos", "chi siamo", "over ons", "会社概要", "私たちについて", "企業情報",
              "关于我们", "회사소개", "о нас"),
    "free": ("free", "free of charge", "gratis", "kostenlos", "kostenlose", "kostenloser", "kostenfrei",
             "gratuit", "gratuite", "gratuito", "gratuita", "無料", "免费", "무료", "бесплатно"),
    "discount": ("discount", "discounts", "deal", "deals", "sale", "offer", "offers", "coupon", "coupons", "promo",
                 "voucher", "vouchers", "rabatt", "rabatte", "angebot", "angebote", "gutschein", "gutscheine",
                 "réduction", "réductions", "promotion", "promotions", "soldes", "offre", "offres", "descuento",
                 "descuentos", "oferta", "ofertas", "cupón", "cupones", "sconto", "sconti", "offerta", "offerte",
                 "korting", "aanbieding", "aanbiedingen", "割引", "セール", "クーポン", "特価", "キャンペーン",
                 "折扣", "优惠", "优惠券", "할인", "쿠폰", "скидка", "скидки"),
    "category": ("category", "categories", "genre", "genres", "department", "departments", "kategorie", "kategorien",
                 "rubrik", "rubriken", "catégorie", "catégories", "categoría", "categorías", "género", "géneros",
                 "categoria", "categorie", "genere", "generi", "カテゴリ", "カテゴリー", "ジャンル", "分类", "类别",
                 "카테고리", "장르", "категория", "жанр"),
    "list": ("list", "lists", "index", "overview", "directory", "liste", "listen", "übersicht", "verzeichnis",
             "lista", "listas", "índice", "elenco", "indice", "lijst", "overzicht", "一覧", "リスト", "目次", "列表",
             "目录", "목록", "список"),
    "series": ("series", "serie", "reihe", "série", "séries", "serien", "シリーズ", "系列", "시리즈", "серия"),
    "customer": ("customer", "customers", "member", "members", "membership", "kunde", "kunden", "neukunde",
                 "mitglied", "mitglieder", "client", "clients", "membre", "membres", "cliente", "clientes", "socio",
                 "miembro", "klant", "klanten", "会員", "お客様", "会员", "客户", "회원", "клиент"),
    "safety": ("safety", "security", "sicherheit", "sécurité", "seguridad", "sicurezza", "veiligheid", "beveiliging",
               "安全", "セキュリティ", "安全", "안전", "보안", "безопасность"),
}
CONCEPTS.update(INFO_CONCEPTS)

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
