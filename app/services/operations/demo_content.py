"""Starting content of the public site, and demo accounts with client data for development.

Pure data, no database access: `operations.seed` inserts it. Dict keys are the model columns they fill, except the
`*_in_days` offsets (relative to the day of seeding, so demo deadlines and meetings stay current) and nested rows
(`milestones`, `items`, `prices`), which the seeder resolves. Where the spec gives content it is reproduced exactly.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from app.core.permissions import EmployeeType, Role
from app.models.enums import (
    BillingPeriod,
    InquiryPriority,
    InquiryStatus,
    InvoiceStatus,
    MeetingStatus,
    MilestoneStatus,
    OrganizationSize,
    ProductCategory,
    ProjectStatus,
    ProjectType,
)

# ---------------------------------------------------------------------------------------------------------------------
# Public site content (seeded in every environment; staff edit it afterwards)
# ---------------------------------------------------------------------------------------------------------------------

SERVICES: list[dict[str, Any]] = [
    {
        "slug": "bi-reports",
        "icon": "bar-chart-3",
        "title": "BI Reports",
        "description": "Turn your data into decisions with interactive dashboards and reports built in Power BI, "
        "Tableau or Excel, tailored to the numbers that drive your business.",
        # The spec records the original card's copy of the mobile feature list as a defect; these are BI features.
        "features": ["Power BI Dashboards", "Tableau Visualizations", "Excel Reporting & Automation", "KPI Tracking"],
        "popular": False,
    },
    {
        "slug": "web-development",
        "icon": "code",
        "title": "Web Development",
        "description": "Fast, secure and accessible websites and web applications, from marketing sites to "
        "e-commerce stores and custom business platforms.",
        "features": ["React & Next.js", "E-commerce", "CMS Integration", "API Development"],
        "popular": True,
    },
    {
        "slug": "website-hosting",
        "icon": "server",
        "title": "Website Hosting",
        "description": "Managed hosting that keeps your site fast and online, with security updates, backups and "
        "monitoring handled for you.",
        "features": [
            "99.9% Uptime Guarantee",
            "Global CDN",
            "Auto-scaling",
            "HTTPS/SSL Certificates",
            "24/7 Monitoring",
        ],
        "popular": False,
    },
    {
        "slug": "mobile-development",
        "icon": "smartphone",
        "title": "Mobile Development",
        "description": "Native-quality iOS and Android apps built from one codebase, taken from idea to the app "
        "stores and kept up to date after launch.",
        "features": ["iOS & Android", "React Native", "App Store Deployment", "Maintenance"],
        "popular": False,
    },
    {
        "slug": "database-design",
        "icon": "database",
        "title": "Database Design",
        "description": "Reliable databases designed around your data, tuned for speed and protected by tested "
        "backup and recovery plans.",
        "features": ["Schema Design", "Performance Tuning", "Data Migration", "Backup Solutions"],
        "popular": False,
    },
    {
        "slug": "digital-transformation",
        "icon": "rocket",
        "title": "Digital Transformation",
        "description": "Replace manual processes and ageing systems with modern tools, and get your team "
        "confident using them.",
        "features": ["Process Automation", "Legacy Modernization", "Training", "Support"],
        "popular": False,
    },
]

# The portfolio filter buttons after "All", in the spec's order.
PORTFOLIO_CATEGORIES: tuple[str, ...] = ("Web Development", "Marketing", "Healthcare", "FinTech", "Education", "IoT")

# IoT has no project on purpose: its filter shows the "Be Our First" card.
PORTFOLIO_PROJECTS: list[dict[str, Any]] = [
    {
        "title": "Treasure Coast Realty Listings",
        "description": "A fast property search site with map-based browsing, saved searches and lead capture "
        "that feeds straight into the agency's CRM.",
        "category": "Web Development",
        "tags": ["Next.js", "PostgreSQL", "Mapbox", "CRM Integration"],
        "is_live": True,
        "link": "https://tcrealty.example.com",
        "image": None,
    },
    {
        "title": "Indian River Boat Tours Campaign",
        "description": "A seasonal campaign site with online booking, SEO landing pages and conversion tracking "
        "that doubled direct reservations.",
        "category": "Marketing",
        "tags": ["SEO", "Landing Pages", "Google Analytics", "Online Booking"],
        "is_live": True,
        "link": "https://riverboattours.example.com",
        "image": None,
    },
    {
        "title": "St. Lucie Family Clinic Scheduling App",
        "description": "A patient app for booking visits, receiving reminders and completing intake forms before "
        "arriving at the clinic.",
        "category": "Healthcare",
        "tags": ["React Native", "Node.js", "HIPAA", "Push Notifications"],
        "is_live": False,
        "link": None,
        "image": None,
    },
    {
        "title": "Coastal Credit Union Member Insights",
        "description": "Executive dashboards that combine lending, deposit and member-service data into one "
        "daily view for the leadership team.",
        "category": "FinTech",
        "tags": ["Power BI", "Azure SQL", "Data Warehouse"],
        "is_live": False,
        "link": None,
        "image": None,
    },
    {
        "title": "Port St. Lucie Learning Hub",
        "description": "An online course platform for a local tutoring centre, with video lessons, quizzes and "
        "progress reports for parents.",
        "category": "Education",
        "tags": ["React", "LMS", "Video Streaming", "Stripe"],
        "is_live": False,
        "link": None,
        "image": None,
    },
]


def _review(name: str, rating: int, day: dt.date, text: str) -> dict[str, Any]:
    return {"name": name, "rating": rating, "date": day, "text": text, "verified": True, "featured": False}


def _featured(name: str, role: str, company: str, text: str) -> dict[str, Any]:
    # The fixed testimonials have no date in the spec; they are always five stars.
    return {
        "name": name,
        "role": role,
        "company": company,
        "rating": 5,
        "text": text,
        "verified": True,
        "featured": True,
    }


TESTIMONIALS: list[dict[str, Any]] = [
    _review(
        "Jennifer Morales",
        5,
        dt.date(2025, 9, 14),
        "They rebuilt our website in three weeks and our phone has not stopped ringing since. "
        "Real local people who answer when you call.",
    ),
    _review(
        "Robert Haines",
        5,
        dt.date(2025, 10, 28),
        "Our sales reports used to take two days in Excel. Now the Power BI dashboard updates itself "
        "every morning before I get to the office.",
    ),
    _review(
        "Angela Price",
        4,
        dt.date(2025, 12, 3),
        "Moving our hosting over was painless and the site is noticeably faster. Communication was clear "
        "from start to finish.",
    ),
    _review(
        "Carlos Ortega",
        5,
        dt.date(2026, 1, 19),
        "Best IT decision we made this year. They automated our invoicing and saved our office manager "
        "hours every week.",
    ),
    _review(
        "Melissa Sutton",
        5,
        dt.date(2026, 2, 25),
        "Finally an IT partner on the Treasure Coast who explains things in plain English. Our new booking "
        "app is a hit with clients.",
    ),
    _review(
        "Kevin Walsh",
        4,
        dt.date(2026, 4, 8),
        "Solid database work. They cleaned up years of messy customer records and our queries run in "
        "seconds instead of minutes.",
    ),
    _review(
        "Tanya Brooks",
        5,
        dt.date(2026, 5, 21),
        "Responsive, honest and on budget. They kept our Stuart storefront online through a busy holiday "
        "season without a single outage.",
    ),
    _review(
        "Howard Lin",
        5,
        dt.date(2026, 7, 10),
        "They replaced our old Access database with a web app the whole team can use from anywhere. "
        "Training was patient and thorough.",
    ),
    _review(
        "Stephanie Rowe",
        4,
        dt.date(2026, 8, 29),
        "Great experience with our e-commerce launch in Port St. Lucie. A couple of small delays, but the "
        "result was worth it.",
    ),
    _review(
        "Michael Dunn",
        5,
        dt.date(2026, 10, 15),
        "From the first consultation to launch day they treated our small business like their only client. "
        "Highly recommended.",
    ),
]

FEATURED_TESTIMONIALS: list[dict[str, Any]] = [
    _featured(
        "Sarah Mitchell",
        "Practice Manager",
        "Palm Coast Pediatrics",
        "Online scheduling cut our phone volume in half, and parents love the reminders. The team "
        "understood our workflow from day one.",
    ),
    _featured(
        "James Carter",
        "Operations Director",
        "Treasure Coast Logistics",
        "The dispatch dashboard they built gives us a live view of every truck. We make better decisions "
        "every single day.",
    ),
    _featured(
        "Linda Nguyen",
        "Owner",
        "Seaside Boutique Hotel",
        "Our new website and direct booking engine paid for themselves within one season. "
        "Professional, creative and always reachable.",
    ),
]

# "Founded 2025, team of 4+ specialists" (About page).
TEAM_MEMBERS: list[dict[str, Any]] = [
    {
        "name": "Marcus Reed",
        "role": "Founder & Lead Consultant",
        "bio": "Marcus founded the company in 2025 after a decade of leading IT projects for growing businesses. "
        "He makes sure every project starts with the client's goals.",
        "skills": ["IT Strategy", "Project Management", "Digital Transformation"],
    },
    {
        "name": "Elena Vasquez",
        "role": "CTO & Full-Stack Engineer",
        "bio": "Elena designs the architecture behind our web platforms and leads code quality, security and "
        "performance across every build.",
        "skills": ["React", "Next.js", "Python", "PostgreSQL"],
    },
    {
        "name": "Priya Shah",
        "role": "BI & Data Specialist",
        "bio": "Priya turns scattered spreadsheets into dashboards people actually use, and designs the databases "
        "that feed them.",
        "skills": ["Power BI", "Tableau", "SQL", "Data Modeling"],
    },
    {
        "name": "Darnell Brooks",
        "role": "Cloud & Mobile Developer",
        "bio": "Darnell builds our mobile apps and runs the hosting platform, keeping client sites fast, patched "
        "and monitored around the clock.",
        "skills": ["React Native", "AWS", "Docker", "CI/CD"],
    },
]

_STANDARD_BENEFITS = [
    "Health, dental and vision insurance",
    "Flexible hours and remote-friendly work",
    "Annual learning and conference budget",
    "Paid time off and company holidays",
]

# Spec section 3 fixes id, title, department, salary and (for JOB-001 and JOB-004) location.
JOB_OPENINGS: list[dict[str, Any]] = [
    {
        "code": "JOB-001",
        "title": "Senior Full-Stack Developer",
        "department": "Engineering",
        "location": "Remote / San Francisco",
        "employment_type": "Full-time",
        "salary": "$120k - $160k",
        "description": "Lead the design and delivery of client web platforms end to end, from database schema to "
        "polished user interface, and mentor junior developers along the way.",
        "requirements": [
            "5+ years of professional full-stack development",
            "Strong React or Next.js and a modern backend (Python or Node.js)",
            "Experience designing relational databases (PostgreSQL preferred)",
            "Comfortable talking directly with clients about requirements",
        ],
        "benefits": _STANDARD_BENEFITS,
    },
    {
        "code": "JOB-002",
        "title": "UI/UX Designer",
        "department": "Design",
        "location": "Remote",
        "employment_type": "Full-time",
        "salary": "$90k - $120k",
        "description": "Shape how our clients' customers experience their websites and apps, from research and "
        "wireframes to high-fidelity prototypes and design systems.",
        "requirements": [
            "3+ years designing web and mobile products",
            "Expert in Figma and prototyping",
            "A portfolio showing user research and accessible design",
            "Able to work closely with developers through implementation",
        ],
        "benefits": _STANDARD_BENEFITS,
    },
    {
        "code": "JOB-003",
        "title": "DevOps Engineer",
        "department": "Engineering",
        "location": "Remote / Port St. Lucie, FL",
        "employment_type": "Full-time",
        "salary": "$110k - $140k",
        "description": "Run and improve the hosting platform behind our clients' sites: automated deployments, "
        "monitoring, backups and security hardening.",
        "requirements": [
            "3+ years operating production infrastructure on AWS or Azure",
            "Docker, infrastructure as code and CI/CD pipelines",
            "Monitoring, alerting and incident response experience",
            "Solid Linux and networking fundamentals",
        ],
        "benefits": _STANDARD_BENEFITS,
    },
    {
        "code": "JOB-004",
        "title": "Junior Developer",
        "department": "Engineering",
        "location": "San Francisco",
        "employment_type": "Full-time",
        "salary": "$70k - $90k",
        "description": "Grow your career building real client projects alongside senior engineers, with code "
        "reviews, pairing and a structured learning plan.",
        "requirements": [
            "A degree, bootcamp or equivalent portfolio of projects",
            "Working knowledge of JavaScript and one backend language",
            "Familiarity with Git and basic SQL",
            "Curiosity and eagerness to learn",
        ],
        "benefits": _STANDARD_BENEFITS,
    },
]

# Bookable Monday to Friday, 9:00 to 17:00 in the business time zone (weekday 0 is Monday).
WEEKDAY_HOURS: dict[str, list[list[str]]] = {str(day): [["09:00", "17:00"]] for day in range(5)}

# The seeder adds scheduling_url (an in-app booking link on the configured PUBLIC_URL), the weekday hours and, with
# demo accounts, the host's account as the organizer.
MEETING_TYPES: list[dict[str, Any]] = [
    {
        "slug": "free-consultation",
        "name": "Free Consultation",
        "duration_minutes": 30,
        "host_name": "Marcus Reed",
        "description": "A no-obligation call to talk through your business, your goals and where technology can "
        "help. You leave with clear next steps, whether or not we work together.",
    },
    {
        "slug": "project-discovery-call",
        "name": "Project Discovery Call",
        "duration_minutes": 60,
        "host_name": "Marcus Reed",
        "description": "A deeper session to map out the scope, timeline and budget of a specific project so we can "
        "prepare an accurate proposal.",
    },
    {
        "slug": "technical-review",
        "name": "Technical Review",
        "duration_minutes": 45,
        "host_name": "Elena Vasquez",
        "description": "Our CTO reviews your existing website, app or database and walks you through the risks, "
        "quick wins and longer-term improvements she finds.",
    },
]

# ---------------------------------------------------------------------------------------------------------------------
# Development-only demo accounts and client data (never created when APP_ENV=prod)
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoAccount:
    """A demo account, field for field `users.create_user`'s keyword arguments."""

    role: Role
    username: str
    email: str
    password: str
    first_name: str
    last_name: str
    employee_type: EmployeeType | None = None
    company: str | None = None
    phone: str | None = None


STAFF_PASSWORD = "Staff-demo-2026"
_STAFF_NAMES: dict[EmployeeType, tuple[str, str]] = {
    EmployeeType.founder: ("Marcus", "Reed"),
    EmployeeType.coo: ("Olivia", "Grant"),
    EmployeeType.cfo: ("Daniel", "Kim"),
    EmployeeType.cto: ("Elena", "Vasquez"),
    EmployeeType.developer: ("Darnell", "Brooks"),
    EmployeeType.marketing_lead: ("Sophie", "Laurent"),
    EmployeeType.sales_lead: ("Tyler", "Jensen"),
    EmployeeType.product_manager: ("Priya", "Shah"),
    EmployeeType.customer_support: ("Maria", "Lopez"),
    EmployeeType.hr: ("Rachel", "Adams"),
    EmployeeType.legal: ("Nathan", "Cole"),
}

DEMO_ADMIN = DemoAccount(Role.admin, "admin", "admin@example.com", "Admin-demo-2026", "Avery", "Collins")
DEMO_STAFF: list[DemoAccount] = [
    DemoAccount(Role.employee, f"staff_{t.value}", f"{t.value}@example.com", STAFF_PASSWORD, *_STAFF_NAMES[t], t)
    for t in EmployeeType
]
DEMO_CLIENT = DemoAccount(
    Role.client,
    "democlient",
    "client@example.com",
    "Client-demo-2026",
    "Dana",
    "Whitfield",
    company="Harbor Dental Group",
    phone="(772) 555-0148",
)
DEMO_ACCOUNTS: list[DemoAccount] = [DEMO_ADMIN, *DEMO_STAFF, DEMO_CLIENT]
# The staff member (the founder, who hosts the meeting types) who organises the demo client's meetings.
DEMO_ORGANIZER = f"staff_{EmployeeType.founder.value}"

DEMO_ORGANIZATION: dict[str, Any] = {
    "name": "Harbor Dental Group",
    "description": "A family dental practice with two offices in Port St. Lucie and Stuart.",
    "website": "https://harbordental.example.com",
    "industry": "Healthcare",
    "size": OrganizationSize.small,
}

# Florida sales tax as applied to the demo invoices.
TAX_RATE = Decimal("0.07")

# time_log: (day offset, hours, the demo staff member's employee type, note); actual hours are their sum.
DEMO_PROJECTS: list[dict[str, Any]] = [
    {
        "name": "Patient Portal & Online Booking",
        "description": "A secure portal where patients book appointments, fill in intake forms and view visit "
        "history, integrated with the practice management system.",
        "status": ProjectStatus.in_progress,
        "project_type": ProjectType.web_development,
        "budget": Decimal("18500.00"),
        "progress_percentage": 60,
        "estimated_hours": 220,
        "time_log": [
            (-74, "6", "product_manager", "Discovery workshop with the practice"),
            (-70, "8", "product_manager", "Requirements and intake-form inventory"),
            (-66, "7.5", "cto", "Practice management system API review"),
            (-60, "4.5", "product_manager", "Requirements sign-off"),
            (-55, "8", "developer", "UX wireframes"),
            (-50, "8", "developer", "Clickable prototype"),
            (-45, "6", "marketing_lead", "Visual design and patient-facing copy"),
            (-38, "3", "product_manager", "Prototype review with the dentists"),
            (-30, "8", "developer", "Booking calendar"),
            (-27, "8", "developer", "Booking reminders by e-mail and text"),
            (-24, "7.5", "cto", "Hosting, backups and HIPAA review"),
            (-20, "8", "developer", "Intake forms"),
            (-17, "8", "developer", "Intake forms: e-signatures"),
            (-13, "8", "developer", "Visit history import"),
            (-9, "8", "developer", "Practice management sync"),
            (-6, "6.5", "developer", "Sync: error handling and retries"),
            (-3, "5", "product_manager", "Sprint review with the practice"),
            (-2, "6.5", "developer", "Staff training materials"),
            (-1, "3.5", "developer", "Fixes from the sprint review"),
        ],
        "start_in_days": -75,
        "deadline_in_days": 45,
        "end_in_days": None,
        "milestones": [
            {"title": "Discovery & Requirements", "status": MilestoneStatus.completed, "due_in_days": -60},
            {"title": "UX Design & Prototype", "status": MilestoneStatus.completed, "due_in_days": -30},
            {"title": "Portal Development", "status": MilestoneStatus.in_progress, "due_in_days": 20},
            {"title": "Launch & Staff Training", "status": MilestoneStatus.pending, "due_in_days": 45},
        ],
    },
    {
        "name": "Practice Analytics Dashboard",
        "description": "Power BI dashboards for chair utilisation, treatment acceptance and revenue per location.",
        "status": ProjectStatus.planning,
        "project_type": ProjectType.consulting,
        "budget": Decimal("6400.00"),
        "progress_percentage": 0,
        "estimated_hours": 80,
        "time_log": [],
        "start_in_days": 14,
        "deadline_in_days": 90,
        "end_in_days": None,
        "milestones": [],
    },
    {
        "name": "Website Redesign & Hosting Migration",
        "description": "A new mobile-friendly website for both offices, moved to managed hosting with a CDN and SSL.",
        "status": ProjectStatus.completed,
        "project_type": ProjectType.web_development,
        "budget": Decimal("9800.00"),
        "progress_percentage": 100,
        "estimated_hours": 120,
        "time_log": [
            (-198, "6", "product_manager", "Kick-off and audit of the old site"),
            (-192, "8", "marketing_lead", "Content plan for both offices"),
            (-185, "8", "developer", "Theme and page templates"),
            (-180, "8", "developer", "Service page templates"),
            (-176, "8", "developer", "Mobile layouts"),
            (-170, "7", "marketing_lead", "Copy for both offices"),
            (-160, "8", "developer", "Content migration"),
            (-155, "8", "developer", "Content migration: blog and FAQ"),
            (-150, "6", "cto", "Managed hosting, CDN and SSL"),
            (-140, "8", "developer", "Forms and office maps"),
            (-130, "8", "developer", "Accessibility fixes"),
            (-120, "7", "product_manager", "Review rounds with the practice"),
            (-110, "8", "cto", "DNS cut-over and monitoring"),
            (-100, "8", "developer", "Launch fixes"),
            (-96, "10", "product_manager", "Launch and handover"),
        ],
        "start_in_days": -200,
        "deadline_in_days": -90,
        "end_in_days": -95,
        "milestones": [],
    },
]

# items: (description, quantity, unit price); amounts and totals are computed by the seeder.
DEMO_INVOICES: list[dict[str, Any]] = [
    {
        "invoice_number": "INV-2026-0001",
        "project": "Website Redesign & Hosting Migration",
        "status": InvoiceStatus.paid,
        "description": "Website redesign and hosting migration",
        "issue_in_days": -94,
        "due_in_days": -64,
        "paid_in_days": -70,
        "notes": "Thank you for your business!",
        "items": [
            ("Website design & development", 1, Decimal("7200.00")),
            ("Hosting migration & SSL setup", 1, Decimal("1450.00")),
            ("Content migration (hours)", 12, Decimal("95.00")),
        ],
    },
    {
        "invoice_number": "INV-2026-0002",
        "project": "Patient Portal & Online Booking",
        "status": InvoiceStatus.pending,
        "description": "Patient portal: discovery and design milestones",
        "issue_in_days": -10,
        "due_in_days": 20,
        "paid_in_days": None,
        "notes": "Payment due within 30 days.",
        "items": [
            ("Milestone 1: Discovery & requirements", 1, Decimal("3700.00")),
            ("Milestone 2: UX design & prototype", 1, Decimal("5550.00")),
            ("Project management (hours)", 8, Decimal("87.50")),
        ],
    },
    {
        "invoice_number": "INV-2026-0003",
        "project": "Patient Portal & Online Booking",
        "status": InvoiceStatus.draft,
        "description": "Patient portal: development sprint 1 and hosting",
        "issue_in_days": None,
        "due_in_days": None,
        "paid_in_days": None,
        "notes": None,
        "items": [
            ("Portal development sprint 1 (hours)", 40, Decimal("112.50")),
            ("Managed hosting (monthly)", 3, Decimal("49.99")),
        ],
    },
]

# Times are whole hours UTC, `starts_in_days` from the day of seeding.
DEMO_MEETINGS: list[dict[str, Any]] = [
    {
        "title": "Patient Portal Sprint Review",
        "description": "Demo of the booking flow and review of the intake forms before launch planning.",
        "meeting_type": "Technical Review",
        "project": "Patient Portal & Online Booking",
        "status": MeetingStatus.scheduled,
        "starts_in_days": 3,
        "hour_utc": 15,
        "duration_minutes": 45,
        "location": "Video call",
        "meeting_url": "https://meet.example.com/harbor-dental-sprint-review",
    },
    {
        "title": "Analytics Dashboard Discovery",
        "description": "Walked through current reports and agreed on the KPIs for the analytics dashboard.",
        "meeting_type": "Project Discovery Call",
        "project": "Practice Analytics Dashboard",
        "status": MeetingStatus.completed,
        "starts_in_days": -12,
        "hour_utc": 14,
        "duration_minutes": 60,
        "location": "Video call",
        "meeting_url": "https://meet.example.com/harbor-dental-discovery",
    },
]

# assign_to: the demo staff username the inquiry is assigned to.
DEMO_INQUIRIES: list[dict[str, Any]] = [
    {
        "name": "Rebecca Tran",
        "email": "rebecca@sunrise-vet.example.com",
        "company": "Sunrise Veterinary Clinic",
        "phone": "(772) 555-0193",
        "service_type": "web-development",
        "budget": "5k-10k",
        "message": "We need a new website with online appointment requests and a pet records area for clients. "
        "Could you send a quote and a rough timeline?",
        "newsletter": True,
        "status": InquiryStatus.new,
        "priority": InquiryPriority.high,
        "assign_to": None,
        "notes": None,
    },
    {
        "name": "Michael Okafor",
        "email": "mokafor@okafor-logistics.example.com",
        "company": "Okafor Logistics",
        "phone": "(561) 555-0127",
        "service_type": "database-design",
        "budget": "3k-5k",
        "message": "Our shipment tracking database is slowing down as we grow. We would like a review and help "
        "migrating to something more robust.",
        "newsletter": False,
        "status": InquiryStatus.in_progress,
        "priority": InquiryPriority.medium,
        "assign_to": "staff_sales_lead",
        "notes": "Discovery call booked; sent the database review checklist.",
    },
]

DEMO_PRODUCTS: list[dict[str, Any]] = [
    {
        "name": "Website Care Plan",
        "description": "Managed hosting, security updates, daily backups and up to two hours of content changes "
        "every month.",
        "category": ProductCategory.service_package,
        "prices": [{"amount": Decimal("149.00"), "currency": "usd", "billing_period": BillingPeriod.monthly}],
    },
    {
        "name": "IT Strategy Consultation",
        "description": "One-on-one time with a senior consultant to review systems, plan projects or get a second "
        "opinion on a proposal.",
        "category": ProductCategory.consultation,
        "prices": [{"amount": Decimal("125.00"), "currency": "usd", "billing_period": BillingPeriod.hourly}],
    },
    {
        "name": "Power BI Fundamentals Workshop",
        "description": "A hands-on, one-day workshop for up to eight people: connecting data, building reports and "
        "sharing dashboards.",
        "category": ProductCategory.training,
        "prices": [{"amount": Decimal("1200.00"), "currency": "usd", "billing_period": BillingPeriod.one_time}],
    },
]
