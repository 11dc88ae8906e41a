"""Word lists the generator composes plausible text from.

Written for heron: short lists combined many ways (a first name with a last name, an adjective
with a material and a product noun) give millions of distinct, readable values without shipping
any real person's or company's data.
"""

FIRST_NAMES = (
    "Ada", "Aiko", "Alba", "Amara", "Anders", "Anika", "Arjun", "Astrid", "Bela", "Benedikt", "Bianca",
    "Bruno", "Camille", "Carmen", "Chidi", "Clara", "Dalia", "Dario", "Devika", "Diego", "Elif", "Elena",
    "Emeka", "Enzo", "Esme", "Farah", "Felix", "Freya", "Gabriel", "Greta", "Hamid", "Hana", "Hugo",
    "Ines", "Ingrid", "Isaac", "Ivana", "Jasper", "Joao", "Jonas", "Kai", "Kamala", "Keiko", "Kofi",
    "Lara", "Leon", "Lina", "Luca", "Maeve", "Malik", "Marta", "Mateo", "Mei", "Mila", "Nadia", "Nico",
    "Nils", "Noor", "Olga", "Omar", "Oskar", "Paloma", "Pavel", "Priya", "Rafael", "Rania", "Rosa",
    "Ruben", "Saanvi", "Sami", "Sofia", "Soren", "Tariq", "Thea", "Tomas", "Una", "Valentin", "Vera",
    "Wanjiru", "Wiebke", "Xavier", "Yara", "Yusuf", "Zara", "Zoltan", "Agnes", "Bram", "Cyrus", "Daphne",
    "Emil", "Femi", "Gia", "Henrik", "Ilse", "Juno", "Kasper", "Leila", "Marek", "Nora", "Otto",
)

LAST_NAMES = (
    "Abara", "Acosta", "Albers", "Andersen", "Arslan", "Bakker", "Banerjee", "Barros", "Becker", "Bianchi",
    "Bjork", "Brennan", "Castillo", "Chen", "Costa", "Dahl", "Delgado", "Demir", "Dubois", "Eriksen",
    "Esposito", "Falk", "Ferreira", "Fischer", "Fontaine", "Garcia", "Gomes", "Greco", "Haas", "Hansen",
    "Herrera", "Holm", "Ibrahim", "Ivanova", "Jansen", "Jensen", "Kaur", "Keller", "Kimura", "Koch",
    "Kovacs", "Kowalski", "Lange", "Larsen", "Laurent", "Lindqvist", "Lopez", "Marino", "Martins",
    "Meyer", "Moreau", "Moretti", "Nakamura", "Nguyen", "Novak", "Okafor", "Olsen", "Ortega", "Osei",
    "Park", "Petrov", "Pereira", "Quinn", "Rahman", "Reyes", "Ricci", "Rossi", "Sato", "Schmidt",
    "Silva", "Sorensen", "Suzuki", "Tanaka", "Torres", "Varga", "Vogel", "Wagner", "Walsh", "Weber",
    "Wojcik", "Yilmaz", "Zhang", "Zielinski", "Achterberg", "Bergstrom", "Cardoso", "Duarte", "Engel",
)

COMPANY_HEADS = (
    "Alder", "Amber", "Anchor", "Apex", "Arbor", "Ashgrove", "Atlas", "Aurora", "Basalt", "Beacon",
    "Birch", "Blue Fjord", "Boreal", "Brightwater", "Broadleaf", "Cairn", "Cedar", "Cinder", "Clearwell",
    "Cobalt", "Copperline", "Coral", "Crescent", "Crest", "Delta", "Driftwood", "Elm", "Ember", "Everline",
    "Fennel", "Fieldstone", "Flint", "Foxglove", "Garnet", "Glacier", "Granite", "Greenway", "Harbor",
    "Hawthorn", "Heath", "Highland", "Indigo", "Ironwood", "Juniper", "Keystone", "Lakeshore", "Larch",
    "Linden", "Lumen", "Maple", "Meridian", "Millbrook", "Monarch", "Moss", "Northgate", "Oakridge",
    "Obsidian", "Orchard", "Pinecrest", "Prairie", "Quarry", "Redwood", "Ridgeline", "Riverbend", "Saffron",
    "Sage", "Silverline", "Slate", "Sparrow", "Spruce", "Stonebridge", "Summit", "Tamarack", "Thistle",
    "Timber", "Topaz", "Tidewater", "Umber", "Valley", "Vantage", "Westwind", "Willow", "Wren", "Yarrow",
)

COMPANY_TAILS = (
    "Supply", "Industries", "Trading", "Distribution", "Wholesale", "Labs", "Works", "Partners", "Group",
    "Logistics", "Components", "Provisions", "Systems", "Goods", "Manufacturing", "Outfitters",
    "Foods", "Health", "Hospitality", "Retail", "Engineering", "Interiors", "Builders", "Electric",
)

COMPANY_SUFFIXES = ("Inc.", "Ltd", "GmbH", "LLC", "S.A.", "B.V.", "AB", "Pty Ltd", "SAS", "Oy", "Co.")

PRODUCT_ADJECTIVES = (
    "Compact", "Heavy-Duty", "Ergonomic", "Recycled", "Insulated", "Modular", "Stackable", "Premium",
    "Lightweight", "Industrial", "Classic", "Foldable", "Reinforced", "Eco", "Pro", "Slimline",
    "Weatherproof", "Adjustable", "Organic", "Precision", "Rapid", "Silent", "Smart", "Universal",
)

PRODUCT_MATERIALS = (
    "Steel", "Oak", "Bamboo", "Aluminium", "Ceramic", "Cotton", "Nylon", "Glass", "Copper", "Walnut",
    "Polymer", "Linen", "Wool", "Carbon", "Leather", "Cork", "Granite", "Brass", "Canvas", "Silicone",
)

PRODUCT_NOUNS = (
    "Shelf Unit", "Desk Lamp", "Storage Bin", "Work Bench", "Office Chair", "Coffee Grinder", "Water Filter",
    "Tool Case", "Label Printer", "Pallet Jack", "Safety Gloves", "Hand Truck", "Monitor Arm", "Cable Tray",
    "Kettle", "Tea Set", "Backpack", "Rain Jacket", "Thermos", "Cutting Board", "Chef Knife", "Serving Tray",
    "Air Purifier", "Floor Mat", "Wall Clock", "Planter", "Drill Set", "Extension Cord", "Headset",
    "Notebook", "Whiteboard", "Locker", "First Aid Kit", "Ladder", "Fan Heater", "Blender", "Scale",
    "Dispenser", "Trolley", "Toolbox", "Work Light", "Barcode Scanner", "Shipping Box", "Tape Gun",
)

WORDS = (
    "account", "access", "adjust", "order", "invoice", "shipment", "delivery", "payment", "credit", "price",
    "update", "request", "review", "schedule", "warehouse", "stock", "item", "customer", "contract",
    "renewal", "discount", "quote", "report", "export", "import", "sync", "error", "delay", "portal",
    "login", "address", "carrier", "tracking", "return", "refund", "approval", "budget", "campaign",
    "survey", "feedback", "ticket", "priority", "team", "integration", "webhook", "setting", "plan",
    "usage", "limit", "balance", "statement", "batch", "label", "package", "pallet", "region", "tax",
    "promotion", "catalog", "variant", "supplier", "purchase", "receipt", "transfer", "count", "audit",
)

SUBJECT_TEMPLATES = (
    "Cannot download invoice", "Shipment arrived damaged", "Wrong item in delivery", "Request to change delivery address",
    "Payment failed at checkout", "Question about volume pricing", "Need a copy of the credit note",
    "Tracking number not working", "Login link expired", "Add a new user to our account",
    "Order still pending after payment", "Discount code rejected", "Update our VAT number",
    "Return label request", "Missing items in shipment", "Invoice shows wrong currency",
    "Request for quote on bulk order", "API returns 429 errors", "Webhook deliveries failing",
    "Cancel our subscription", "Upgrade our plan", "Backorder status", "Change payment terms to net 60",
    "Duplicate charge on card", "Product out of stock", "Export of last month's orders",
)

CITIES = (
    "Lisbon", "Porto", "Madrid", "Valencia", "Lyon", "Nantes", "Hamburg", "Leipzig", "Munich", "Rotterdam",
    "Utrecht", "Antwerp", "Gothenburg", "Malmo", "Aarhus", "Bergen", "Tampere", "Krakow", "Brno", "Graz",
    "Turin", "Bologna", "Dublin", "Cork", "Leeds", "Bristol", "Glasgow", "Toronto", "Calgary", "Austin",
    "Denver", "Portland", "Raleigh", "Columbus", "Tucson", "Boise", "Melbourne", "Perth", "Auckland",
    "Osaka", "Nagoya", "Pune", "Nairobi", "Accra", "Lagos", "Sao Paulo", "Curitiba", "Monterrey",
)

STREETS = (
    "Harbour Road", "Mill Lane", "Station Street", "Canal Way", "Orchard Avenue", "Market Square",
    "Bridge Street", "Park Row", "Quarry Road", "Foundry Lane", "Dock Street", "Church Road", "High Street",
    "Industrial Park", "Commerce Drive", "Logistics Way", "Meadow Close", "Riverside Walk",
)

TAGS = (
    "vip", "wholesale", "priority", "net-terms", "export", "seasonal", "new", "at-risk", "renewal",
    "fragile", "bulk", "eco", "promo", "b2b", "pilot", "legacy", "enterprise", "smb", "emea", "apac",
)

DOMAINS = ("example.com", "example.net", "example.org", "mail.example", "corp.example")
