"""Seeded data for the bundled sites: products, forum threads, back-office records.

Everything comes from ``random.Random`` seeded with a string derived from the site seed, so
the same seed yields the same data on every run and machine. No faker: the word lists below
are small and hand-written, which is enough for realistic-looking, distinct values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

#: The sites' fixed "now": relative times and dates are computed from it, never the wall clock.
NOW = datetime(2024, 6, 1, 12, 0, 0)

FIRST_NAMES = (
    "Ava", "Liam", "Maya", "Noah", "Priya", "Omar", "Chloe", "Mateo", "Hana", "Lucas", "Zara",
    "Elias", "Nina", "Arjun", "Sofia", "Jonas", "Amara", "Felix", "Leila", "Tomas", "Ines",
    "Kenji", "Greta", "Ravi", "Olga", "Samuel", "Yara", "Diego", "Mei", "Hugo", "Freya", "Idris",
)
LAST_NAMES = (
    "Novak", "Okafor", "Lindqvist", "Haddad", "Moreau", "Tanaka", "Kowalski", "Brennan", "Silva",
    "Fischer", "Nguyen", "Petrov", "Castillo", "Larsen", "Mensah", "Rossi", "Ibrahim", "Walsh",
    "Kaur", "Becker", "Duarte", "Sato", "Varga", "Eriksen", "Achebe", "Romano", "Quinn", "Horvat",
)

CATEGORIES: dict[str, tuple[str, ...]] = {
    "Kitchen": ("Blender", "Chef's Knife", "Cast Iron Skillet", "Coffee Grinder", "Kettle", "Toaster"),
    "Audio": ("Wireless Headphones", "Bookshelf Speaker", "Soundbar", "Earbuds", "Turntable"),
    "Computers": ("Mechanical Keyboard", "Wireless Mouse", "27-inch Monitor", "USB-C Hub", "Webcam"),
    "Outdoor": ("Trail Backpack", "Camping Tent", "Headlamp", "Sleeping Bag", "Water Filter"),
    "Home Office": ("Desk Lamp", "Ergonomic Chair", "Standing Desk", "Monitor Arm", "Cable Tray"),
    "Fitness": ("Yoga Mat", "Kettlebell", "Resistance Bands", "Jump Rope", "Foam Roller"),
    "Garden": ("Pruning Shears", "Garden Hose", "Raised Bed Kit", "Watering Can", "Compost Bin"),
    "Toys": ("Building Blocks Set", "Puzzle 1000 pieces", "Plush Bear", "Remote Control Car"),
    "Beauty": ("Hair Dryer", "Electric Toothbrush", "Face Serum", "Beard Trimmer"),
    "Pet Supplies": ("Dog Bed", "Cat Scratcher", "Pet Fountain", "Leash", "Aquarium Heater"),
    "Tools": ("Cordless Drill", "Socket Set", "Laser Level", "Stud Finder", "Tape Measure"),
    "Books": ("Cookbook", "Field Guide", "Travel Journal", "Sketchbook"),
}
BRANDS = (
    "Nordwind", "Acorn & Co", "Brightline", "Kestrel", "Lumio", "Orbix", "Pinecrest", "Quanta",
    "Redfern", "Solstice", "Tamber", "Vantage", "Wildgrove", "Zephyr", "Halcyon", "Mirabel",
)
ADJECTIVES = (
    "Compact", "Pro", "Classic", "Ultra", "Eco", "Smart", "Heavy-Duty", "Travel", "Deluxe", "Mini",
    "Essential", "Premium", "Lite", "Max",
)
COLORS = ("Black", "White", "Slate Grey", "Forest Green", "Navy", "Sand")
REVIEW_TITLES = (
    ("Stopped working after a month", "Not worth the price", "Disappointed"),
    ("Mediocre", "Does the job, barely", "Expected more"),
    ("Okay for the money", "Decent", "It's fine"),
    ("Very good", "Happy with it", "Solid purchase"),
    ("Excellent!", "Exactly what I needed", "Best buy this year"),
)
REVIEW_BODIES = (
    "Arrived quickly and was well packed.", "The build quality feels better than I expected.",
    "Instructions were confusing but setup took ten minutes.", "My partner uses it every day.",
    "A bit louder than advertised.", "Customer service answered within a day.",
    "The colour is slightly different from the photos.", "Battery life is great.",
    "I bought a second one as a gift.", "It scratches easily, so be careful.",
)

FORUMS: dict[str, str] = {
    "gardening": "Soil, seeds and the eternal fight against slugs",
    "cooking": "Recipes, techniques and kitchen disasters",
    "cycling": "Road, gravel, commuting and bike maintenance",
    "homelab": "Servers, networking and self-hosting at home",
    "books": "What are you reading? Reviews and recommendations",
    "travel": "Trip reports, itineraries and packing lists",
    "diy": "Home repair, woodworking and tools",
    "photography": "Gear, editing and critique",
    "running": "Training plans, races and injuries",
    "boardgames": "Strategy, party games and rule questions",
}
TOPICS: dict[str, tuple[str, ...]] = {
    "gardening": ("tomatoes splitting", "best mulch for raised beds", "slugs eating my lettuce",
                  "when to prune roses", "compost smells bad", "growing garlic in pots"),
    "cooking": ("sourdough starter not rising", "cast iron seasoning", "best knife sharpener",
                "weeknight curry ideas", "freezing fresh pasta", "crispy roast potatoes"),
    "cycling": ("tubeless tyre sealant", "first century ride", "commuting in the rain",
                "chain wear checker", "gravel bike sizing", "saddle sores advice"),
    "homelab": ("Proxmox vs bare metal", "cheap 10GbE switch", "backup strategy for photos",
                "Pi-hole on a VM", "noisy server fans", "reverse proxy setup"),
    "books": ("favourite sci-fi of the decade", "book club picks", "audiobooks for commuting",
              "reading slump", "translated fiction recommendations", "annotating books"),
    "travel": ("two weeks in Portugal", "carry-on only packing", "night trains in Europe",
               "travel insurance claims", "Japan rail pass worth it", "solo hiking in Scotland"),
    "diy": ("fixing a squeaky floor", "best stud finder", "tiling a bathroom",
            "painting kitchen cabinets", "first workbench build", "replacing a door handle"),
    "photography": ("first prime lens", "editing in darktable", "street photography ethics",
                    "cleaning a sensor", "film vs digital", "photographing birds"),
    "running": ("shin splints recovery", "first marathon plan", "running shoes for flat feet",
                "interval training", "running in the heat", "5k under 25 minutes"),
    "boardgames": ("games for two players", "teaching Twilight Imperium", "best cooperative games",
                   "sleeving cards", "storage inserts", "house rules for Catan"),
}
TITLE_SHAPES = (
    "Help: {t}?", "{T} - what worked for me", "Question about {t}", "{T}: a long write-up",
    "Anyone else dealing with {t}?", "Tips on {t}", "Update on {t} (photos inside)",
)
COMMENT_SENTENCES = (
    "Same thing happened to me last year.", "Have you tried asking at your local shop?",
    "This is the best advice in the thread.", "I disagree, it depends a lot on the climate.",
    "Thanks for the detailed write-up!", "Could you post a photo?", "Following, same problem here.",
    "Worked for me, but it took a few weeks.", "Check the FAQ in the sidebar first.",
    "Honestly I would just start over.", "Great question, I learned something.",
)
USER_WORDS = ("river", "maple", "quiet", "rust", "pixel", "cedar", "orbit", "fern", "lunar", "copper")

DEPARTMENTS = (
    "Engineering", "Finance", "Human Resources", "Legal", "Marketing", "Operations",
    "Customer Support", "Sales", "Research", "Facilities",
)
JOB_TITLES = ("Analyst", "Specialist", "Coordinator", "Manager", "Associate", "Lead", "Director")
STATUSES = ("Active", "On leave", "Probation", "Terminated")
OFFICES = ("Berlin", "Lisbon", "Toronto", "Nairobi", "Singapore", "Austin", "Warsaw", "Melbourne")

#: Credentials shown in task goals (the sites accept every generated user with its password).
FORUM_USER, FORUM_PASSWORD = "quietfern", "fern-2024"
ADMIN_USER, ADMIN_PASSWORD = "admin", "backoffice-7"


@dataclass(frozen=True, slots=True)
class Review:
    author: str
    rating: int
    title: str
    body: str
    posted: date


@dataclass(frozen=True, slots=True)
class Product:
    id: str  # "p001"
    name: str
    brand: str
    category: str
    price_cents: int
    rating: float  # mean of reviews, one decimal
    added: date
    stock: int
    color: str
    description: str
    reviews: tuple[Review, ...]

    @property
    def price(self) -> str:
        return f"${self.price_cents // 100:,}.{self.price_cents % 100:02d}"


@dataclass(frozen=True, slots=True)
class Comment:
    id: str  # "c0001"
    post_id: int
    parent: str | None
    author: str
    body: str
    created: datetime
    score: int


@dataclass(frozen=True, slots=True)
class Post:
    id: int
    forum: str
    title: str
    body: str
    author: str
    created: datetime
    score: int


@dataclass(frozen=True, slots=True)
class Record:
    id: str  # "E0001"
    first_name: str
    last_name: str
    email: str
    department: str
    title: str
    status: str
    office: str
    start_date: date
    remote: bool
    salary: int
    notes: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


def slug(text: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _rng(seed: int, part: str) -> random.Random:
    return random.Random(f"pagelens:{seed}:{part}")


def make_products(seed: int, count: int = 240) -> tuple[Product, ...]:
    rng = _rng(seed, "shop")
    names: set[str] = set()
    products: list[Product] = []
    cats = list(CATEGORIES)
    while len(products) < count:
        category = cats[len(products) % len(cats)]
        brand = rng.choice(BRANDS)
        name = f"{brand} {rng.choice(ADJECTIVES)} {rng.choice(CATEGORIES[category])}"
        if name in names:
            continue
        names.add(name)
        reviews = []
        skew = rng.uniform(-1.5, 1.0)
        for _ in range(rng.randint(2, 6)):
            stars = max(1, min(5, round(rng.gauss(4 + skew, 1.0))))
            reviews.append(Review(
                author=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)[0]}.",
                rating=stars,
                title=rng.choice(REVIEW_TITLES[stars - 1]),
                body=" ".join(rng.sample(REVIEW_BODIES, 2)),
                posted=NOW.date() - timedelta(days=rng.randint(1, 700)),
            ))
        reviews.sort(key=lambda r: r.posted, reverse=True)
        rating = round(sum(r.rating for r in reviews) / len(reviews), 1)
        price = rng.choice((rng.randint(5, 60), rng.randint(20, 250), rng.randint(80, 900)))
        price_cents = price * 100 + rng.choice((0, 49, 95, 99))
        idx = len(products) + 1
        products.append(Product(
            id=f"p{idx:03d}", name=name, brand=brand, category=category, price_cents=price_cents,
            rating=rating, added=NOW.date() - timedelta(days=rng.randint(0, 900)),
            stock=rng.choice((0, 3, 12, 40, 100)), color=rng.choice(COLORS),
            description=(f"The {name} is a {rng.choice(('dependable', 'thoughtfully designed', 'popular', 'versatile'))} "
                         f"pick in our {category} range. Designed by {brand} for everyday use, it ships in "
                         f"{rng.choice(COLORS).lower()} packaging with a {rng.choice((1, 2, 3))}-year warranty."),
            reviews=tuple(reviews),
        ))
    return tuple(products)


def make_users(seed: int, count: int = 40) -> tuple[str, ...]:
    rng = _rng(seed, "users")
    users = {FORUM_USER}
    while len(users) < count:
        users.add(f"{rng.choice(USER_WORDS)}{rng.choice(('_', ''))}{rng.choice(FIRST_NAMES).lower()}{rng.randint(1, 99)}")
    return tuple(sorted(users))


def make_forum(seed: int, posts: int = 150) -> tuple[tuple[Post, ...], tuple[Comment, ...]]:
    rng = _rng(seed, "forum")
    users = [u for u in make_users(seed) if u != FORUM_USER]
    out_posts: list[Post] = []
    comments: list[Comment] = []
    titles: set[str] = set()
    forums = list(FORUMS)
    while len(out_posts) < posts:
        forum = forums[len(out_posts) % len(forums)]
        topic = rng.choice(TOPICS[forum])
        title = rng.choice(TITLE_SHAPES).format(t=topic, T=topic[0].upper() + topic[1:])
        if title in titles:
            continue
        titles.add(title)
        pid = len(out_posts) + 1
        created = NOW - timedelta(minutes=rng.randint(30, 60 * 24 * 60))
        body = " ".join(rng.sample(COMMENT_SENTENCES, 3)) + f" Context: this is about {topic}."
        out_posts.append(Post(pid, forum, title, body, rng.choice(users), created, rng.randint(-5, 480)))
        thread: list[Comment] = []
        for _ in range(rng.choice((0, 2, 4, 7, 11))):
            parent = rng.choice(thread).id if thread and rng.random() < 0.45 else None
            parent_c = next((c for c in thread if c.id == parent), None)
            if parent_c is not None and parent_c.parent is not None and rng.random() < 0.5:
                parent = parent_c.parent  # keep trees from growing too deep
            base = parent_c.created if parent_c else created
            thread.append(Comment(
                id=f"c{len(comments) + len(thread) + 1:04d}", post_id=pid, parent=parent,
                author=rng.choice(users), body=" ".join(rng.sample(COMMENT_SENTENCES, 2)),
                created=min(NOW, base + timedelta(minutes=rng.randint(3, 900))), score=rng.randint(-3, 60),
            ))
        comments.extend(thread)
    return tuple(out_posts), tuple(comments)


def make_records(seed: int, count: int = 600) -> tuple[Record, ...]:
    rng = _rng(seed, "admin")
    seen: set[str] = set()
    records: list[Record] = []
    while len(records) < count:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        name = f"{first} {last}"
        if name in seen:
            last = f"{last}-{rng.choice(LAST_NAMES)}"
            name = f"{first} {last}"
            if name in seen:
                continue
        seen.add(name)
        idx = len(records) + 1
        dept = rng.choice(DEPARTMENTS)
        records.append(Record(
            id=f"E{idx:04d}", first_name=first, last_name=last,
            email=f"{first.lower()}.{slug(last).replace('-', '')}@example.org",
            department=dept, title=f"{rng.choice(JOB_TITLES)}, {dept}",
            status=rng.choices(STATUSES, weights=(70, 10, 10, 10))[0], office=rng.choice(OFFICES),
            start_date=date(2010, 1, 4) + timedelta(days=rng.randint(0, 5200)),
            remote=rng.random() < 0.35, salary=rng.randint(38, 190) * 1000 + rng.choice((0, 500)),
            notes="",
        ))
    return tuple(records)
